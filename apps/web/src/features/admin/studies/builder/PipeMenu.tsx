import { useId, useState } from 'react';
import { useDraft } from '../editor/draft-context';
import { fieldId, getAt, type Path } from '../editor/draft-path';
import { SMALL_BUTTON } from '../editor/ListEditor';
import { useStep } from './builder-context';

/**
 * "Insert answer": the keys of the answers given in EARLIER steps (a pipe to a later one cannot be filled), each
 * inserting `{{key}}` at the field's cursor (or at its end). A disclosure of buttons: Tab, Enter, Escape closes.
 */
export function PipeMenu({ path, label }: { path: Path; label: string }) {
  const { draft, edit, readOnly } = useDraft();
  const { earlier } = useStep();
  const [open, setOpen] = useState(false);
  const listId = useId();
  if (readOnly) return null;
  const field = fieldId(path);

  const insert = (key: string) => {
    const value = getAt(draft, path);
    const text = typeof value === 'string' ? value : '';
    const element = document.getElementById(field) as HTMLInputElement | HTMLTextAreaElement | null;
    const at = element?.selectionStart ?? text.length;
    const pipe = `{{${key}}}`;
    edit(path, text.slice(0, at) + pipe + text.slice(element?.selectionEnd ?? at));
    setOpen(false);
    window.requestAnimationFrame(() => {
      const target = document.getElementById(field) as HTMLInputElement | HTMLTextAreaElement | null;
      target?.focus();
      target?.setSelectionRange(at + pipe.length, at + pipe.length);
    });
  };

  return (
    <div className="mt-1" onKeyDown={(e) => e.key === 'Escape' && open && (e.stopPropagation(), setOpen(false))}>
      <button
        type="button"
        className={SMALL_BUTTON}
        aria-expanded={open}
        aria-controls={listId}
        aria-label={`Insert answer into ${label}`}
        onClick={() => setOpen(!open)}
      >
        Insert answer
      </button>
      {open && (
        <div id={listId} className="mt-1 rounded-lg border border-slate-200 bg-white p-2">
          {earlier.length === 0 ? (
            <p className="text-sm text-slate-600">No answers are given before this step.</p>
          ) : (
            <ul aria-label={`Answers given before this step, for ${label}`} className="flex flex-wrap gap-2">
              {earlier.map((key) => (
                <li key={key}>
                  <button type="button" className={`${SMALL_BUTTON} font-mono`} onClick={() => insert(key)}>
                    {`{{${key}}}`}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
