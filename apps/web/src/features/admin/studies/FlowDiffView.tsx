import type { FlowDefinition } from '@studychat/contracts/web';
import { flowDiff, type FieldChange, type ListChange, type StepChange } from './flow-diff';

/** One changed field: old → new for short values, 'changed' with its changed lines for long texts. */
function Field({ change }: { change: FieldChange }) {
  const path = <span className="font-mono text-slate-800">{change.path}</span>;
  if (change.kind === 'added') {
    return (
      <li>
        {path} added: <ins className="bg-green-100 text-green-900 no-underline">{change.after}</ins>
      </li>
    );
  }
  if (change.kind === 'removed') {
    return (
      <li>
        {path} removed (was <del className="bg-red-100 text-red-900">{change.before}</del>)
      </li>
    );
  }
  if (change.kind === 'value') {
    return (
      <li>
        {path}: <del className="bg-red-100 text-red-900">{change.before}</del> →{' '}
        <ins className="bg-green-100 text-green-900 no-underline">{change.after}</ins>
      </li>
    );
  }
  const lines = change.lines.filter((l) => l.kind !== 'same');
  return (
    <li>
      {path} changed
      <pre className="mt-1 overflow-auto rounded border border-slate-200 bg-slate-50 p-2 text-xs whitespace-pre-wrap">
        {lines.map((line, i) => (
          <div key={i} className={line.kind === 'added' ? 'bg-green-100 text-green-900' : 'bg-red-100 text-red-900'}>
            {line.kind === 'added' ? '+ ' : '- '}
            {line.text}
          </div>
        ))}
      </pre>
    </li>
  );
}

function stepSummary(step: StepChange): string {
  if (step.kind === 'added') return `added at position ${step.after}`;
  if (step.kind === 'removed') return `removed (was at position ${step.before})`;
  const parts: string[] = [];
  if (step.moved) parts.push(`moved from position ${step.before} to ${step.after}`);
  if (step.fields.length > 0) parts.push(`${step.fields.length} field${step.fields.length === 1 ? '' : 's'} changed`);
  return parts.join('; ');
}

function ListSection({ title, noun, change }: { title: string; noun: string; change: ListChange }) {
  if (change.added.length + change.removed.length + change.changed.length === 0) return null;
  return (
    <section aria-label={title} className="mt-4">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-700">
        {change.added.map((key) => (
          <li key={`+${key}`}>
            {noun} <span className="font-mono">{key}</span> added
          </li>
        ))}
        {change.removed.map((key) => (
          <li key={`-${key}`}>
            {noun} <span className="font-mono">{key}</span> removed
          </li>
        ))}
        {change.changed.map(({ key, fields }) => (
          <li key={`~${key}`}>
            {noun} <span className="font-mono">{key}</span>:
            <ul className="list-[circle] pl-5">
              {fields.map((f) => (
                <Field key={f.path} change={f} />
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Two flow versions compared step by step (issue 31), with conditions, pathways and the study's texts. */
export function FlowDiffView({ before, after }: { before: FlowDefinition; after: FlowDefinition }) {
  const diff = flowDiff(before, after);
  if (diff.same) return <p className="mt-3 text-slate-700">The two definitions are the same.</p>;
  const steps = diff.steps.filter((s) => s.kind !== 'kept' || s.moved || s.fields.length > 0);
  const count = (kind: StepChange['kind']) => diff.steps.filter((s) => s.kind === kind).length;
  return (
    <div className="mt-3">
      <p className="text-sm text-slate-700">
        Steps: {count('added')} added, {count('removed')} removed, {diff.steps.filter((s) => s.moved).length} moved,{' '}
        {diff.steps.filter((s) => s.kind === 'kept' && s.fields.length > 0).length} changed.
      </p>
      {diff.study.length > 0 && (
        <section aria-label="Study" className="mt-4">
          <h3 className="font-semibold text-slate-900">Study</h3>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-700">
            {diff.study.map((f) => (
              <Field key={f.path} change={f} />
            ))}
          </ul>
        </section>
      )}
      <ListSection title="Conditions" noun="Condition" change={diff.conditions} />
      <ListSection title="Pathways" noun="Pathway" change={diff.pathways} />
      {steps.length > 0 && (
        <section aria-label="Steps" className="mt-4">
          <h3 className="font-semibold text-slate-900">Steps</h3>
          <ol className="mt-1 space-y-2 text-sm text-slate-700">
            {steps.map((step) => (
              <li
                key={`${step.kind}-${step.id}`}
                className={`rounded border-l-4 px-3 py-2 ${
                  step.kind === 'added'
                    ? 'border-green-600 bg-green-50'
                    : step.kind === 'removed'
                      ? 'border-red-600 bg-red-50'
                      : 'border-slate-400 bg-slate-50'
                }`}
              >
                <p>
                  <span className="font-mono font-semibold text-slate-900">{step.id}</span> ({step.type}):{' '}
                  {stepSummary(step)}
                </p>
                {step.fields.length > 0 && (
                  <ul className="mt-1 list-disc space-y-1 pl-5">
                    {step.fields.map((f) => (
                      <Field key={f.path} change={f} />
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}
