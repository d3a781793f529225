import { useDraft } from '../editor/draft-context';
import { fieldId, getAt, type Path } from '../editor/draft-path';
import { FieldIssues } from '../editor/FieldIssues';
import { INPUT } from '../editor/fields';

/**
 * A choice at `path` (a pathway, a provider, an answer key). `onPick` replaces the plain write when a choice
 * changes more than its own place (a question's type). A value not among the choices is shown as it is.
 */
export function SelectField({
  path,
  label,
  hiddenLabel,
  choices,
  onPick,
  emptyLabel,
}: {
  path: Path;
  label: string;
  hiddenLabel?: string;
  choices: { value: string; label: string }[];
  onPick?: (value: string) => void;
  /** Offered first; picking it removes the key (e.g. "the deployment's provider"). */
  emptyLabel?: string;
}) {
  const { draft, edit, issuesAt, readOnly } = useDraft();
  const id = fieldId(path);
  const issues = issuesAt(path);
  const raw = getAt(draft, path);
  const value = typeof raw === 'string' ? raw : '';
  const known = choices.some((c) => c.value === value) || (emptyLabel !== undefined && value === '');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
        {hiddenLabel && <span className="sr-only">{hiddenLabel}</span>}
      </label>
      <select
        id={id}
        value={value}
        disabled={readOnly}
        aria-invalid={issues.length > 0 ? true : undefined}
        aria-describedby={issues.length > 0 ? `${id}-issues` : undefined}
        className={`${INPUT} ${issues.length > 0 ? 'border-red-500' : 'border-slate-300'} max-w-md`}
        onChange={(e) =>
          onPick ? onPick(e.target.value) : edit(path, e.target.value === '' ? undefined : e.target.value)
        }
      >
        {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
        {!known && <option value={value}>{value === '' ? '(choose)' : value}</option>}
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <FieldIssues id={`${id}-issues`} issues={issues} />
    </div>
  );
}
