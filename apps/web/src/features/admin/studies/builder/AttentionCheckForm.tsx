import type { FlowQuestion } from '@studychat/contracts/web';
import { useDraft } from '../editor/draft-context';
import { fieldId, type Path } from '../editor/draft-path';
import { FieldIssues } from '../editor/FieldIssues';
import { useBuilder } from './builder-context';
import { formatList, formatScalar, ParsedInput, parseList, parseScalar } from './ParsedInput';
import { SelectField } from './SelectField';

/** The expected answer a new check starts from: the first option, or the lowest possible answer. */
function firstAnswer(q: FlowQuestion): string | number | string[] {
  if (q.type === 'single') return q.options[0]?.value ?? '';
  if (q.type === 'multiple') return q.options.slice(0, 1).map((o) => o.value);
  if (q.type === 'likert') return 1;
  if (q.type === 'slider') return q.min;
  return q.type === 'number' ? (q.min ?? 0) : '';
}

/** An attention check: the answer expected, and what another answer does (flag, or end with a pathway). */
export function AttentionCheckForm({ path, question, of }: { path: Path; question: FlowQuestion; of: string }) {
  const { flow } = useBuilder();
  const { edit, issuesAt, readOnly } = useDraft();
  const check = [...path, 'check'] as const;
  const onFail = question.check?.onFail;
  const issues = issuesAt(check);
  return (
    <fieldset id={fieldId(check)} tabIndex={-1} className="space-y-3 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">Attention check{of}</legend>
      <FieldIssues id={`${fieldId(check)}-issues`} issues={issues} />
      <label className="flex min-h-11 items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          className="h-5 w-5"
          checked={question.check !== undefined}
          disabled={readOnly}
          onChange={(e) =>
            edit(check, e.target.checked ? { expected: firstAnswer(question), onFail: { flag: true } } : undefined)
          }
        />
        This question is an attention check<span className="sr-only">{of}</span>
      </label>
      {question.check && (
        <>
          {question.type === 'single' ? (
            <SelectField
              path={[...check, 'expected']}
              label="Expected answer"
              hiddenLabel={of}
              choices={question.options.map((o) => ({ value: o.value, label: o.label }))}
            />
          ) : question.type === 'multiple' ? (
            <ParsedInput
              path={[...check, 'expected']}
              label="Expected answers (values, separated by commas)"
              hiddenLabel={of}
              format={formatList}
              parse={(text) => parseList(text, false)}
            />
          ) : (
            <ParsedInput
              path={[...check, 'expected']}
              label="Expected answer"
              hiddenLabel={of}
              format={formatScalar}
              parse={(text) => parseScalar(text, true)}
            />
          )}
          <div>
            <label htmlFor={fieldId([...check, 'onFail'])} className="block text-sm font-medium text-slate-800">
              Another answer<span className="sr-only">{of}</span>
            </label>
            <select
              id={fieldId([...check, 'onFail'])}
              className="mt-1 block w-full max-w-md rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
              disabled={readOnly}
              value={onFail && 'end' in onFail ? 'end' : 'flag'}
              onChange={(e) =>
                edit(
                  [...check, 'onFail'],
                  e.target.value === 'end' ? { end: flow.pathways.at(-1)?.key ?? '' } : { flag: true },
                )
              }
            >
              <option value="flag">flags the participant in the data</option>
              <option value="end">ends the study with a pathway</option>
            </select>
          </div>
          {onFail && 'end' in onFail && (
            <SelectField
              path={[...check, 'onFail', 'end']}
              label="Pathway"
              hiddenLabel={of}
              choices={flow.pathways.map((p) => ({ value: p.key, label: `${p.label} (${p.key})` }))}
            />
          )}
        </>
      )}
    </fieldset>
  );
}
