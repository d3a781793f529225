import { questionsByKey, type Comparison } from '@studychat/contracts/web';
import type { ReactNode } from 'react';
import { useDraft } from '../editor/draft-context';
import { getAt, type Path } from '../editor/draft-path';
import { useBuilder, useStep } from './builder-context';
import { formatList, formatScalar, ParsedInput, parseList, parseScalar } from './ParsedInput';
import { SelectField } from './SelectField';

export const OPS: { value: Comparison['op']; label: string }[] = [
  { value: 'eq', label: 'is' },
  { value: 'ne', label: 'is not' },
  { value: 'lt', label: 'is less than' },
  { value: 'gt', label: 'is more than' },
  { value: 'in', label: 'is one of' },
  { value: 'lte', label: 'is at most' },
  { value: 'gte', label: 'is at least' },
  { value: 'includes', label: 'includes' },
  { value: 'answered', label: 'is answered' },
];

/** A comparison's value carried over to another operator: a list for "is one of", one value otherwise. */
function valueFor(op: Comparison['op'], value: Comparison['value']): Comparison['value'] {
  if (op === 'answered') return undefined;
  if (op === 'in') return value === undefined ? undefined : Array.isArray(value) ? value : [value];
  return Array.isArray(value) ? value[0] : value;
}

/** A new comparison reading the last answer given before the step (its value for the researcher to write). */
export const newComparison = (earlier: readonly string[]): Comparison => ({
  key: earlier.at(-1) ?? '',
  op: 'eq',
  value: '',
});

/**
 * One comparison at `path` as the words of a sentence: [answer] [is / is not / ...] [value], and the values a
 * choice question stores. `of` ends each field's name for screen readers (" of step 3", " of comparison 2 in step 3").
 */
export function ComparisonFields({
  path,
  of,
  lead,
  tail,
}: {
  path: Path;
  of: string;
  /** Words before the fields, in the same line ("If"). */
  lead?: ReactNode;
  /** What follows in the same line (the pathway). */
  tail?: ReactNode;
}) {
  const { flow } = useBuilder();
  const { earlier } = useStep();
  const { draft, edit } = useDraft();
  const raw = getAt(draft, path);
  const rule = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<Comparison>;
  const key = typeof rule.key === 'string' ? rule.key : '';
  const op = rule.op ?? 'eq';
  const question = questionsByKey(flow).get(key);
  const numeric = question !== undefined && ['likert', 'slider', 'number'].includes(question.type);
  return (
    <>
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        {lead}
        <SelectField
          path={[...path, 'key']}
          label="answer"
          hiddenLabel={of}
          choices={earlier.map((k) => ({ value: k, label: k }))}
        />
        <SelectField
          path={[...path, 'op']}
          label="comparison"
          hiddenLabel={of}
          choices={OPS}
          onPick={(next) =>
            edit(path, { key, op: next as Comparison['op'], value: valueFor(next as Comparison['op'], rule.value) })
          }
        />
        {op !== 'answered' &&
          (op === 'in' ? (
            <ParsedInput
              path={[...path, 'value']}
              label="values, separated by commas"
              hiddenLabel={of}
              format={formatList}
              parse={(text) => parseList(text, numeric)}
            />
          ) : (
            <ParsedInput
              path={[...path, 'value']}
              label="value"
              hiddenLabel={of}
              format={formatScalar}
              parse={(text) => parseScalar(text, numeric)}
            />
          ))}
        {tail}
      </div>
      {question && (question.type === 'single' || question.type === 'multiple') && (
        <p className="text-sm text-slate-600">
          Values of {key}: {question.options.map((o) => `${o.value} (${o.label})`).join(', ')}
        </p>
      )}
    </>
  );
}
