import type { Rule } from '@studychat/contracts/web';
import { useEffect, useState } from 'react';
import { useDraft } from '../editor/draft-context';
import { fieldId, getAt, listAt, movedItem, withoutItem, type Path } from '../editor/draft-path';
import { FieldIssues } from '../editor/FieldIssues';
import { SMALL_BUTTON } from '../editor/ListEditor';
import { useStep } from './builder-context';
import { ComparisonFields, newComparison } from './ComparisonFields';

type Mode = 'all' | 'any';

/** Groups nest this deep at most when built here ("A and (B or C)"); a deeper rule from the JSON still shows. */
const MAX_DEPTH = 1;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether the rule at hand combines rules (all / any), and which way. */
export function groupMode(rule: unknown): Mode | null {
  if (!isRecord(rule)) return null;
  if (Array.isArray(rule.all)) return 'all';
  if (Array.isArray(rule.any)) return 'any';
  return null;
}

/** The first comparison in a rule, depth first (what "Use one comparison" keeps). */
export function firstComparison(rule: unknown): Rule | null {
  const mode = groupMode(rule);
  if (mode === null) return isRecord(rule) && typeof rule.key === 'string' ? (rule as Rule) : null;
  for (const item of (rule as Record<Mode, unknown[]>)[mode]) {
    const found = firstComparison(item);
    if (found) return found;
  }
  return null;
}

const MODE_SELECT =
  'rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40';

const buttonId = (path: Path, what: string) => `${fieldId(path)}-${what}`;

/**
 * A rule combining rules: "If [all / any] of these hold", then each comparison (or a nested group) as a sentence
 * with Up, Down and Remove; Add comparison, Add group. Native buttons and selects only: the keyboard reaches
 * everything, and focus follows what a button added, moved or removed. `number` numbers the comparisons in the
 * fields' names ("comparison 2.1"), `of` ends them (" in step 3").
 */
export function RuleGroupForm({
  path,
  step,
  number = '',
  depth = 0,
}: {
  path: Path;
  /** The step's number (1-based), for the fields' names. */
  step: number;
  /** The group's place among its parent's items, with a dot ("2."); empty for the whole rule. */
  number?: string;
  depth?: number;
}) {
  const { draft, edit, issuesAt, readOnly } = useDraft();
  const { earlier } = useStep();
  const [focusNext, setFocusNext] = useState<string | null>(null);
  useEffect(() => {
    if (focusNext === null) return;
    document.getElementById(focusNext)?.focus();
    setFocusNext(null);
  }, [focusNext]);

  const mode = groupMode(getAt(draft, path)) ?? 'all';
  const listPath = [...path, mode] as const;
  const items = listAt(draft, listPath);
  const of = ` in step ${step}`;
  const name = (i: number) => `comparison ${number}${i + 1}`;
  const groupName = number === '' ? `the rule of step ${step}` : `group ${number.slice(0, -1)}${of}`;
  const id = fieldId(path);
  const issues = [...issuesAt(path), ...issuesAt(listPath)];

  const write = (list: unknown[]) => edit(listPath, list);
  const add = (item: unknown) => {
    write([...items, item]);
    const added = [...listPath, items.length];
    setFocusNext(fieldId(groupMode(item) ? [...added, groupMode(item) as Mode, 0, 'key'] : [...added, 'key']));
  };
  const move = (from: number, to: number, direction: 'up' | 'down') => {
    write(movedItem(items, from, to));
    const edge = (direction === 'up' && to === 0) || (direction === 'down' && to === items.length - 1);
    setFocusNext(buttonId([...listPath, to], edge ? (direction === 'up' ? 'down' : 'up') : direction));
  };
  const remove = (index: number) => {
    write(withoutItem(items, index));
    const left = items.length - 1;
    // Remove is disabled on a lone item: focus the next item's Remove, else the last one's, else Add comparison.
    setFocusNext(left <= 1 ? buttonId(path, 'add') : buttonId([...listPath, Math.min(index, left - 1)], 'remove'));
  };

  return (
    <fieldset
      id={id}
      tabIndex={-1}
      aria-describedby={issues.length > 0 ? `${id}-issues` : undefined}
      className="space-y-3 rounded-lg border border-slate-200 p-3"
    >
      <legend className="px-1 text-sm font-semibold text-slate-800">
        {number === '' ? `Rule of step ${step}` : `Group ${number.slice(0, -1)}`}
        {number !== '' && <span className="sr-only">{of}</span>}
      </legend>
      <FieldIssues id={`${id}-issues`} issues={issues} />
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <span className="font-semibold">{number === '' ? 'If' : 'When'}</span>
        <label htmlFor={`${id}-mode`} className="sr-only">
          {`All or any of ${groupName}`}
        </label>
        <select
          id={`${id}-mode`}
          value={mode}
          disabled={readOnly}
          className={MODE_SELECT}
          onChange={(e) => edit(path, { [e.target.value]: items })}
        >
          <option value="all">all of these hold</option>
          <option value="any">any of these holds</option>
        </select>
      </div>
      <ol id={fieldId(listPath)} tabIndex={-1} className="space-y-3">
        {items.map((item, i) => {
          const itemPath = [...listPath, i] as const;
          const itemOf = ` of ${name(i)}${of}`;
          return (
            <li key={i} className="space-y-2 border-l-2 border-slate-200 pl-3">
              {i > 0 && (
                <p className="text-sm font-semibold text-slate-700" aria-hidden="true">
                  {mode === 'all' ? 'and' : 'or'}
                </p>
              )}
              {groupMode(item) ? (
                <RuleGroupForm path={itemPath} step={step} number={`${number}${i + 1}.`} depth={depth + 1} />
              ) : (
                <ComparisonFields path={itemPath} of={itemOf} />
              )}
              {!readOnly && (
                <div className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    id={buttonId(itemPath, 'up')}
                    className={SMALL_BUTTON}
                    disabled={i === 0}
                    aria-label={`Move ${groupMode(item) ? 'group' : 'comparison'} ${number}${i + 1} up${of}`}
                    onClick={() => move(i, i - 1, 'up')}
                  >
                    Up
                  </button>
                  <button
                    type="button"
                    id={buttonId(itemPath, 'down')}
                    className={SMALL_BUTTON}
                    disabled={i === items.length - 1}
                    aria-label={`Move ${groupMode(item) ? 'group' : 'comparison'} ${number}${i + 1} down${of}`}
                    onClick={() => move(i, i + 1, 'down')}
                  >
                    Down
                  </button>
                  <button
                    type="button"
                    id={buttonId(itemPath, 'remove')}
                    className={SMALL_BUTTON}
                    disabled={items.length === 1}
                    aria-label={`Remove ${groupMode(item) ? 'group' : 'comparison'} ${number}${i + 1}${of}`}
                    onClick={() => remove(i)}
                  >
                    Remove
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ol>
      {!readOnly && (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            id={buttonId(path, 'add')}
            className={SMALL_BUTTON}
            aria-label={`Add comparison to ${groupName}`}
            onClick={() => add(newComparison(earlier))}
          >
            Add comparison
          </button>
          {depth < MAX_DEPTH && (
            <button
              type="button"
              className={SMALL_BUTTON}
              aria-label={`Add group to ${groupName}`}
              onClick={() => add({ [mode === 'all' ? 'any' : 'all']: [newComparison(earlier)] })}
            >
              Add group
            </button>
          )}
        </div>
      )}
    </fieldset>
  );
}
