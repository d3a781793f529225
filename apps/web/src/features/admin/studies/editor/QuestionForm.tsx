import { useDraft } from './draft-context';
import { fieldId, getAt, type Path } from './draft-path';
import { FieldIssues } from './FieldIssues';
import { CheckInput, TextInput } from './fields';
import { ListEditor } from './ListEditor';
import { ScaleLabelsForm } from './ScaleLabelsForm';

/**
 * One pre-study question: key, wording, type, then its options (choice) or its scale labels (scale), and
 * whether it must be answered. Changing the type swaps options for labels, so the JSON holds only what the
 * type uses; what the other type had is kept aside while the editor is open (`typeStash`, by answer key), so
 * switching back (a mis-click undone) restores it (docs/decisions/0062).
 */
export function QuestionForm({ index }: { index: number }) {
  const { draft, edit, issuesAt, readOnly, typeStash } = useDraft();
  const path: Path = ['pre', 'questions', index];
  const n = index + 1;
  const type = getAt(draft, [...path, 'type']);
  const typeId = fieldId([...path, 'type']);
  const typeIssues = issuesAt([...path, 'type']);
  const question = getAt(draft, path);

  const changeType = (next: 'choice' | 'scale') => {
    const current = typeof question === 'object' && question !== null ? { ...(question as object) } : {};
    const { options, labels, ...rest } = current as { options?: unknown; labels?: unknown; key?: unknown };
    const stashKey = typeof rest.key === 'string' && rest.key !== '' ? rest.key : `#${index}`;
    const kept = typeStash.get(stashKey) ?? {};
    // What the type being left had, kept aside for a switch back.
    typeStash.set(stashKey, {
      ...kept,
      ...(options !== undefined ? { options } : {}),
      ...(labels !== undefined ? { labels } : {}),
    });
    edit(
      path,
      next === 'choice'
        ? {
            ...rest,
            type: next,
            options: options ??
              kept.options ?? [
                { value: '', label: '' },
                { value: '', label: '' },
              ],
          }
        : { ...rest, type: next, labels: labels ?? kept.labels ?? { min: '', mid: '', max: '' } },
    );
  };

  return (
    <div className="space-y-3">
      <FieldIssues id={`${fieldId(path)}-issues`} issues={issuesAt(path)} />
      <TextInput path={[...path, 'wording']} label={`Wording of question ${n}`} rows={2} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextInput
          path={[...path, 'key']}
          label={`Answer key of question ${n}`}
          hint="The column in the exports: lower-case letters, digits and _."
        />
        <div>
          <label htmlFor={typeId} className="block text-sm font-medium text-slate-800">
            Type of question {n}
          </label>
          <select
            id={typeId}
            value={type === 'scale' ? 'scale' : 'choice'}
            disabled={readOnly}
            aria-describedby={typeIssues.length > 0 ? `${typeId}-issues` : undefined}
            className="mt-1 block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
            onChange={(e) => changeType(e.target.value === 'scale' ? 'scale' : 'choice')}
          >
            <option value="choice">Choice (options)</option>
            <option value="scale">Scale (1-7)</option>
          </select>
          <FieldIssues id={`${typeId}-issues`} issues={typeIssues} />
        </div>
      </div>
      {type === 'scale' ? (
        <ScaleLabelsForm path={[...path, 'labels']} of={`question ${n}`} />
      ) : (
        <ListEditor
          path={[...path, 'options']}
          legend={`Options of question ${n}`}
          itemName="option"
          newItem={() => ({ value: '', label: '' })}
        >
          {(option) => (
            <div className="grid gap-2 sm:grid-cols-2">
              <TextInput
                path={[...path, 'options', option, 'label']}
                label={`Label of option ${option + 1} of question ${n}`}
              />
              <TextInput
                path={[...path, 'options', option, 'value']}
                label={`Value of option ${option + 1} of question ${n}`}
              />
            </div>
          )}
        </ListEditor>
      )}
      <CheckInput path={[...path, 'required']} label={`Question ${n} must be answered`} />
    </div>
  );
}
