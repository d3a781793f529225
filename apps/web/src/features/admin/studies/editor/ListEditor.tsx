import type { ReactNode } from 'react';
import { useDraft } from './draft-context';
import { fieldId, listAt, movedItem, withoutItem, type Path } from './draft-path';
import { FieldIssues } from './FieldIssues';
import { TextInput } from './fields';

export const SMALL_BUTTON =
  'min-h-9 rounded border border-slate-300 bg-white px-2 text-sm text-slate-800 hover:bg-slate-100 disabled:text-slate-400';

/**
 * The list at `path` with, per item, Move up / Move down / Remove, and an Add button at the end; each button
 * shows a short word (Up, Down, Remove) and is named for its item ("Remove question 2") for a screen reader.
 */
export function ListEditor({
  path,
  legend,
  itemName,
  itemSuffix = '',
  newItem,
  more = [],
  children,
}: {
  path: Path;
  legend: string;
  /** e.g. "question": the buttons say "Move question 2 up". */
  itemName: string;
  /** Added to the buttons' names, e.g. " of the table in mmr section 1 block 2". */
  itemSuffix?: string;
  newItem: (list: unknown[]) => unknown;
  /** Other kinds of item to add, e.g. "Add Markdown block". */
  more?: { label: string; item: () => unknown }[];
  children: (index: number) => ReactNode;
}) {
  const { draft, edit, issuesAt, readOnly } = useDraft();
  const list = listAt(draft, path);
  const id = fieldId(path);
  const issues = issuesAt(path);
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      aria-describedby={issues.length > 0 ? `${id}-issues` : undefined}
      className="space-y-3 rounded-lg border border-slate-200 p-2 sm:p-3"
    >
      <legend className="px-1 text-sm font-semibold text-slate-800">{legend}</legend>
      <FieldIssues id={`${id}-issues`} issues={issues} />
      {list.map((_, index) => (
        <div key={index} className="space-y-2 border-l-2 border-slate-200 pl-2 sm:pl-3">
          {children(index)}
          {!readOnly && (
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className={SMALL_BUTTON}
                disabled={index === 0}
                aria-label={`Move ${itemName} ${index + 1} up${itemSuffix}`}
                onClick={() => edit(path, movedItem(list, index, index - 1))}
              >
                Up
              </button>
              <button
                type="button"
                className={SMALL_BUTTON}
                disabled={index === list.length - 1}
                aria-label={`Move ${itemName} ${index + 1} down${itemSuffix}`}
                onClick={() => edit(path, movedItem(list, index, index + 1))}
              >
                Down
              </button>
              <button
                type="button"
                className={SMALL_BUTTON}
                aria-label={`Remove ${itemName} ${index + 1}${itemSuffix}`}
                onClick={() => edit(path, withoutItem(list, index))}
              >
                Remove
              </button>
            </div>
          )}
        </div>
      ))}
      {!readOnly && (
        <div className="flex flex-wrap gap-2">
          <button type="button" className={SMALL_BUTTON} onClick={() => edit(path, [...list, newItem(list)])}>
            Add {itemName}
          </button>
          {more.map((kind) => (
            <button
              key={kind.label}
              type="button"
              className={SMALL_BUTTON}
              onClick={() => edit(path, [...list, kind.item()])}
            >
              {kind.label}
            </button>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/**
 * A list of texts (paragraphs, bullets, scripted replies), one text area each. `hiddenLabel` ends each text's name
 * for screen readers (" of block 2 of step 3"); `after` adds a control under each text (the builder's Insert answer).
 */
export function TextList({
  path,
  legend,
  itemName,
  hiddenLabel,
  after,
}: {
  path: Path;
  legend: string;
  itemName: string;
  hiddenLabel?: string;
  after?: (path: Path, label: string) => ReactNode;
}) {
  return (
    <ListEditor path={path} legend={legend} itemName={itemName} itemSuffix={hiddenLabel} newItem={() => ''}>
      {(index) => {
        const label = `${capital(itemName)} ${index + 1}`;
        return (
          <div>
            <TextInput path={[...path, index]} label={label} hiddenLabel={hiddenLabel} rows={3} />
            {after?.([...path, index], `${label}${hiddenLabel ?? ''}`)}
          </div>
        );
      }}
    </ListEditor>
  );
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
