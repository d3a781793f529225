import type { FlowStep } from '@studychat/contracts/web';
import { useDraft } from '../editor/draft-context';
import { fieldId } from '../editor/draft-path';
import { FieldIssues } from '../editor/FieldIssues';
import { useBuilder } from './builder-context';
import { withConditions } from './flow-edits';

/** Which conditions see a step: a checkbox each; none checked is everyone. */
export function StepConditions({ index, step }: { index: number; step: FlowStep }) {
  const { flow, change } = useBuilder();
  const { issuesAt, readOnly } = useDraft();
  const path = ['steps', index, 'conditions'];
  const id = fieldId(path);
  const issues = issuesAt(path);
  const chosen = step.conditions ?? [];
  const toggle = (condition: string, on: boolean) =>
    change((current) => {
      const s = current.steps[index];
      if (!s) return current;
      const list = s.conditions ?? [];
      const next = on
        ? flow.conditions.map((c) => c.id).filter((c) => c === condition || list.includes(c))
        : list.filter((c) => c !== condition);
      return { ...current, steps: current.steps.map((x, i) => (i === index ? withConditions(x, next) : x)) };
    });
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      aria-describedby={issues.length > 0 ? `${id}-issues` : undefined}
      className="rounded-lg border border-slate-200 p-3"
    >
      <legend className="px-1 text-sm font-semibold text-slate-800">Shown to (step {index + 1})</legend>
      <p className="text-sm text-slate-600">None checked: everyone sees this step.</p>
      <div className="flex flex-wrap gap-x-4">
        {flow.conditions.map((c) => (
          <label key={c.id} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="h-5 w-5"
              checked={chosen.includes(c.id)}
              disabled={readOnly}
              onChange={(e) => toggle(c.id, e.target.checked)}
            />
            {c.label} ({c.id})
          </label>
        ))}
      </div>
      <FieldIssues id={`${id}-issues`} issues={issues} />
    </fieldset>
  );
}
