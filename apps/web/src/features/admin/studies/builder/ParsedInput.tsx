import { useState } from 'react';
import { useDraft } from '../editor/draft-context';
import { fieldId, getAt, type Path } from '../editor/draft-path';
import { FieldIssues } from '../editor/FieldIssues';
import { INPUT } from '../editor/fields';

/**
 * A value typed as text and written parsed (a list written "a, b", a number or a word): what is typed stays on
 * screen while the draft holds its parsed value. `parse` returning undefined removes the key.
 */
export function ParsedInput({
  path,
  label,
  hiddenLabel,
  hint,
  format,
  parse,
  inline = false,
}: {
  path: Path;
  label: string;
  hiddenLabel?: string;
  hint?: string;
  format: (value: unknown) => string;
  parse: (text: string) => unknown;
  /** In a sentence: the label is for screen readers only. */
  inline?: boolean;
}) {
  const { draft, edit, issuesAt, readOnly } = useDraft();
  const id = fieldId(path);
  const issues = issuesAt(path);
  const value = getAt(draft, path);
  const [state, setState] = useState(() => ({ raw: format(value), from: value }));
  if (state.from !== value && format(state.from) !== format(value)) setState({ raw: format(value), from: value });
  const hintId = hint ? `${id}-hint` : undefined;
  const describedBy = [hintId, issues.length > 0 ? `${id}-issues` : undefined].filter(Boolean).join(' ');
  return (
    <div className={inline ? 'inline-block align-top' : undefined}>
      <label htmlFor={id} className={inline ? 'sr-only' : 'block text-sm font-medium text-slate-800'}>
        {label}
        {hiddenLabel && <span className="sr-only">{hiddenLabel}</span>}
      </label>
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      <input
        id={id}
        value={state.raw}
        readOnly={readOnly}
        aria-invalid={issues.length > 0 ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={`${INPUT} ${issues.length > 0 ? 'border-red-500' : 'border-slate-300'} ${inline ? 'w-44' : 'max-w-md'}`}
        onChange={(e) => {
          const next = parse(e.target.value);
          setState({ raw: e.target.value, from: next });
          edit(path, next);
        }}
      />
      <FieldIssues id={`${id}-issues`} issues={issues} />
    </div>
  );
}

/** A number when the text is one, else the text (for the check to name), empty: not set. */
export function parseScalar(text: string, numeric: boolean): string | number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  if (numeric && Number.isFinite(Number(t))) return Number(t);
  return t;
}

/** "a, b, c" as a list (numbers when `numeric`); empty: not set. */
export function parseList(text: string, numeric: boolean): (string | number)[] | undefined {
  const items = text
    .split(',')
    .map((item) => parseScalar(item, numeric))
    .filter((item) => item !== undefined);
  return items.length === 0 ? undefined : items;
}

export const formatScalar = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

export const formatList = (value: unknown): string =>
  Array.isArray(value) ? value.map(formatScalar).join(', ') : formatScalar(value);
