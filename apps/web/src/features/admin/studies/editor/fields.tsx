import { useState } from 'react';
import { useDraft } from './draft-context';
import { fieldId, getAt, type Path } from './draft-path';
import { FieldIssues } from './FieldIssues';

export const INPUT =
  'mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40 read-only:bg-slate-50';

/** What a field at `path` needs: its value, ids, issues and how to write it. */
function useField(path: Path) {
  const { draft, edit, issuesAt, readOnly } = useDraft();
  const id = fieldId(path);
  const issues = issuesAt(path);
  return {
    value: getAt(draft, path),
    id,
    issues,
    errorId: issues.length > 0 ? `${id}-issues` : undefined,
    write: (value: unknown) => edit(path, value),
    readOnly,
    border: issues.length > 0 ? 'border-red-500' : 'border-slate-300',
  };
}

const shown = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';

/**
 * A text at `path`, one line or several. `optional` removes the key when the text is emptied
 * (e.g. a block's heading, a model name), so the definition says "not set" rather than "empty".
 */
export function TextInput({
  path,
  label,
  rows,
  optional = false,
  hint,
  placeholder,
  hiddenLabel,
}: {
  path: Path;
  label: string;
  /** The rest of the field's name, for screen readers only (e.g. " of the table in mmr section 3 block 4"). */
  hiddenLabel?: string;
  rows?: number;
  optional?: boolean;
  hint?: string;
  /** What applies while the field is empty (e.g. the spec's words). */
  placeholder?: string;
}) {
  const f = useField(path);
  const hintId = hint ? `${f.id}-hint` : undefined;
  const props = {
    id: f.id,
    value: shown(f.value),
    placeholder,
    readOnly: f.readOnly,
    'aria-invalid': f.issues.length > 0 ? true : undefined,
    'aria-describedby': [hintId, f.errorId].filter(Boolean).join(' ') || undefined,
    className: `${INPUT} ${f.border}`,
    onChange: (e: { target: { value: string } }) =>
      f.write(optional && e.target.value === '' ? undefined : e.target.value),
  };
  return (
    <div>
      <label htmlFor={f.id} className="block text-sm font-medium text-slate-800">
        {label}
        {hiddenLabel && <span className="sr-only">{hiddenLabel}</span>}
      </label>
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      {rows ? <textarea rows={rows} {...props} /> : <input {...props} />}
      <FieldIssues id={`${f.id}-issues`} issues={f.issues} />
    </div>
  );
}

/** Empty is "not set"; a number is a number; anything else stays the text typed, for the server to refuse. */
const toNumber = (raw: string): unknown => {
  const text = raw.trim();
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
};

/**
 * A number at `path`, typed as text so a half-typed "0." stays on screen; empty removes the key
 * (an optional setting then falls back to its default; a required one is reported by the server).
 */
export function NumberInput({
  path,
  label,
  hint,
  hiddenLabel,
}: {
  path: Path;
  label: string;
  hint?: string;
  /** The rest of the field's name, for screen readers only (e.g. " of step 3"). */
  hiddenLabel?: string;
}) {
  const f = useField(path);
  const [state, setState] = useState(() => ({ raw: shown(f.value), from: f.value }));
  // Changed elsewhere (the JSON view, a reload): show the new value.
  if (state.from !== f.value) setState({ raw: shown(f.value), from: f.value });
  const hintId = hint ? `${f.id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={f.id} className="block text-sm font-medium text-slate-800">
        {label}
        {hiddenLabel && <span className="sr-only">{hiddenLabel}</span>}
      </label>
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      <input
        id={f.id}
        inputMode="decimal"
        value={state.raw}
        readOnly={f.readOnly}
        aria-invalid={f.issues.length > 0 ? true : undefined}
        aria-describedby={[hintId, f.errorId].filter(Boolean).join(' ') || undefined}
        className={`${INPUT} ${f.border} max-w-40`}
        onChange={(e) => {
          const next = toNumber(e.target.value);
          setState({ raw: e.target.value, from: next });
          f.write(next);
        }}
      />
      <FieldIssues id={`${f.id}-issues`} issues={f.issues} />
    </div>
  );
}

/** A yes/no at `path`. */
export function CheckInput({ path, label, hiddenLabel }: { path: Path; label: string; hiddenLabel?: string }) {
  const f = useField(path);
  return (
    <div>
      <label className="flex min-h-11 items-center gap-2 text-sm font-medium text-slate-800">
        <input
          id={f.id}
          type="checkbox"
          className="h-5 w-5"
          checked={f.value === true}
          disabled={f.readOnly}
          aria-invalid={f.issues.length > 0 ? true : undefined}
          aria-describedby={f.errorId}
          onChange={(e) => f.write(e.target.checked)}
        />
        {label}
        {hiddenLabel && <span className="sr-only">{hiddenLabel}</span>}
      </label>
      <FieldIssues id={`${f.id}-issues`} issues={f.issues} />
    </div>
  );
}
