import { questionsByKey, type Comparison, type FlowStep } from '@studychat/contracts/web';
import { useDraft } from '../editor/draft-context';
import { fieldId } from '../editor/draft-path';
import { FieldIssues } from '../editor/FieldIssues';
import { SMALL_BUTTON } from '../editor/ListEditor';
import { useBuilder, useStep } from './builder-context';
import { formatList, formatScalar, ParsedInput, parseList, parseScalar } from './ParsedInput';
import { SelectField } from './SelectField';

const OPS: { value: Comparison['op']; label: string }[] = [
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

/**
 * A screen step as a sentence: "If [answer] [is / is not / ...] [value], end with pathway [pathway]". A rule
 * combining several comparisons (all / any) is kept, and edited in the JSON view.
 */
export function ScreenForm({ index }: { index: number }) {
  const { flow } = useBuilder();
  const { earlier } = useStep();
  const { edit, issuesAt, readOnly } = useDraft();
  const step = flow.steps[index] as Extract<FlowStep, { type: 'screen' }>;
  const at = ['steps', index] as const;
  const of = ` of step ${index + 1}`;
  const when = [...at, 'when'] as const;
  const pathway = (
    <SelectField
      path={[...at, 'pathway']}
      label="end with pathway"
      hiddenLabel={of}
      choices={flow.pathways.map((p) => ({ value: p.key, label: `${p.label} (${p.key})` }))}
    />
  );
  if (!('key' in step.when)) {
    const parts = 'all' in step.when ? step.when.all.length : step.when.any.length;
    return (
      <>
        <p className="text-sm text-slate-700">
          This rule combines {parts} comparisons ({'all' in step.when ? 'all must hold' : 'any may hold'}); edit it in
          the JSON view, or replace it with one comparison.
        </p>
        {!readOnly && (
          <button
            type="button"
            className={SMALL_BUTTON}
            onClick={() => edit(when, { key: earlier.at(-1) ?? '', op: 'eq', value: '' })}
          >
            Replace with one comparison<span className="sr-only">{of}</span>
          </button>
        )}
        {pathway}
      </>
    );
  }
  const rule = step.when;
  const question = questionsByKey(flow).get(rule.key);
  const numeric = question !== undefined && ['likert', 'slider', 'number'].includes(question.type);
  const issues = issuesAt(when);
  return (
    <fieldset id={fieldId(when)} tabIndex={-1} className="space-y-3 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">Rule{of}</legend>
      <FieldIssues id={`${fieldId(when)}-issues`} issues={issues} />
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <span className="pt-3 font-semibold">If</span>
        <SelectField
          path={[...when, 'key']}
          label="answer"
          hiddenLabel={of}
          choices={earlier.map((key) => ({ value: key, label: key }))}
        />
        <SelectField
          path={[...when, 'op']}
          label="comparison"
          hiddenLabel={of}
          choices={OPS}
          onPick={(op) => edit(when, { key: rule.key, op, value: valueFor(op as Comparison['op'], rule.value) })}
        />
        {rule.op !== 'answered' &&
          (rule.op === 'in' ? (
            <ParsedInput
              path={[...when, 'value']}
              label="values, separated by commas"
              hiddenLabel={of}
              format={formatList}
              parse={(text) => parseList(text, numeric)}
            />
          ) : (
            <ParsedInput
              path={[...when, 'value']}
              label="value"
              hiddenLabel={of}
              format={formatScalar}
              parse={(text) => parseScalar(text, numeric)}
            />
          ))}
        {pathway}
      </div>
      {question && (question.type === 'single' || question.type === 'multiple') && (
        <p className="text-sm text-slate-600">
          Values of {rule.key}: {question.options.map((o) => `${o.value} (${o.label})`).join(', ')}
        </p>
      )}
    </fieldset>
  );
}
