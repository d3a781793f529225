import { MAX_CONDITIONS } from '@studychat/contracts/web';
import { useDraft } from './draft-context';
import { fieldId, listAt } from './draft-path';
import { addCondition, removeCondition, renameCondition } from './condition-edits';
import { FieldIssues } from './FieldIssues';
import { INPUT, TextInput } from './fields';

const SMALL_BUTTON =
  'min-h-9 rounded border border-slate-300 bg-white px-2 text-sm text-slate-800 hover:bg-slate-100 disabled:text-slate-400';

/**
 * The study's conditions (docs/decisions/0061): 2 to 6, each an id (stored on assignments and in the exports)
 * and a label for researchers. Renaming, adding or removing one changes every per-condition part with it.
 */
export function ConditionsForm() {
  const { draft, edit, issuesAt, readOnly } = useDraft();
  const conditions = listAt(draft, ['conditionList']) as { id?: unknown; label?: unknown }[];
  const listId = fieldId(['conditionList']);
  return (
    <fieldset id={listId} tabIndex={-1} className="space-y-3 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">Conditions</legend>
      <p className="text-sm text-slate-600">
        Participants are randomised among these, in permuted blocks of two each. Ids: lower-case letters, digits and _,
        from a letter, at most 20; they are stored with each participant, so they cannot change once the version is in
        use.
      </p>
      <FieldIssues id={`${listId}-issues`} issues={issuesAt(['conditionList'])} />
      {conditions.map((condition, index) => {
        const id = typeof condition.id === 'string' ? condition.id : '';
        const idPath = ['conditionList', index, 'id'] as const;
        const inputId = fieldId([...idPath]);
        const issues = issuesAt([...idPath]);
        return (
          <div key={index} className="space-y-2 border-l-2 border-slate-200 pl-3">
            <div>
              <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
                Id of condition {index + 1}
              </label>
              <input
                id={inputId}
                value={id}
                readOnly={readOnly}
                aria-invalid={issues.length > 0 ? true : undefined}
                aria-describedby={issues.length > 0 ? `${inputId}-issues` : undefined}
                className={`${INPUT} ${issues.length > 0 ? 'border-red-500' : 'border-slate-300'}`}
                onChange={(e) => edit([], renameCondition(draft, id, e.target.value))}
              />
              <FieldIssues id={`${inputId}-issues`} issues={issues} />
            </div>
            <TextInput path={['conditionList', index, 'label']} label={`Label of condition ${index + 1}`} />
            {!readOnly && (
              <button
                type="button"
                className={SMALL_BUTTON}
                disabled={conditions.length <= 2}
                aria-label={`Remove condition ${index + 1}`}
                onClick={() => edit([], removeCondition(draft, id))}
              >
                Remove
              </button>
            )}
          </div>
        );
      })}
      {!readOnly && (
        <button
          type="button"
          className={SMALL_BUTTON}
          disabled={conditions.length >= MAX_CONDITIONS}
          onClick={() => edit([], addCondition(draft))}
        >
          Add condition
        </button>
      )}
    </fieldset>
  );
}
