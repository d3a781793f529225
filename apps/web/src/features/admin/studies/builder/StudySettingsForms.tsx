import { useDraft } from '../editor/draft-context';
import { fieldId } from '../editor/draft-path';
import { FieldIssues } from '../editor/FieldIssues';
import { TextInput } from '../editor/fields';
import { FormSection } from '../editor/FormSection';
import { ListEditor, SMALL_BUTTON } from '../editor/ListEditor';
import { useBuilder } from './builder-context';
import { addCondition, removeCondition } from './flow-edits';

/** The study's title, id and the texts every page shows. */
function TextsForm() {
  return (
    <>
      <TextInput path={['title']} label="Study title" />
      <TextInput path={['id']} label="Study id" hint="Names the study in the data." />
      <TextInput
        path={['texts', 'welcome']}
        label="Welcome line"
        hint="Under the title on the welcome page."
        rows={2}
      />
      <TextInput path={['texts', 'disclaimer']} label="Disclaimer" hint="In the footer of every study page." rows={2} />
    </>
  );
}

/** The conditions: id and label each; adding one gives it a weight, removing one takes it out of every step. */
function ConditionsList() {
  const { flow, change } = useBuilder();
  const { issuesAt, readOnly } = useDraft();
  const id = fieldId(['conditions']);
  const issues = issuesAt(['conditions']);
  return (
    <fieldset id={id} tabIndex={-1} className="space-y-3 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">Conditions</legend>
      <FieldIssues id={`${id}-issues`} issues={issues} />
      <p className="text-sm text-slate-600">
        Changing a condition’s id does not rename it in the steps: the check names every place that still uses the old
        one.
      </p>
      {flow.conditions.map((c, i) => (
        <div key={i} className="grid items-end gap-3 border-l-2 border-slate-200 pl-3 sm:grid-cols-[1fr_2fr_auto]">
          <TextInput path={['conditions', i, 'id']} label={`Id of condition ${i + 1}`} />
          <TextInput path={['conditions', i, 'label']} label={`Label of condition ${i + 1}`} />
          {!readOnly && (
            <button
              type="button"
              className={SMALL_BUTTON}
              disabled={flow.conditions.length === 1}
              onClick={() => change((f) => removeCondition(f, i))}
            >
              Remove<span className="sr-only"> condition {i + 1}</span>
            </button>
          )}
        </div>
      ))}
      {!readOnly && (
        <button type="button" className={SMALL_BUTTON} onClick={() => change(addCondition)}>
          Add condition
        </button>
      )}
    </fieldset>
  );
}

/** The ways out of the study, each ended by one end step and paid with its own code. */
function PathwaysList() {
  return (
    <ListEditor
      path={['pathways']}
      legend="Pathways"
      itemName="pathway"
      newItem={(list) => ({ key: `pathway_${list.length + 1}`, label: `Pathway ${list.length + 1}` })}
    >
      {(i) => (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextInput path={['pathways', i, 'key']} label={`Key of pathway ${i + 1}`} />
          <TextInput path={['pathways', i, 'label']} label={`Label of pathway ${i + 1}`} />
          <TextInput
            path={['pathways', i, 'description']}
            label={`Description of pathway ${i + 1} (optional)`}
            optional
          />
        </div>
      )}
    </ListEditor>
  );
}

/** The study-wide parts, each a disclosure that counts its problems. */
export function StudySettingsForms() {
  return (
    <div className="space-y-3">
      <FormSection title="Study title and texts" prefixes={['title', 'id', 'texts']}>
        <TextsForm />
      </FormSection>
      <FormSection title="Conditions" prefixes={['conditions']}>
        <ConditionsList />
      </FormSection>
      <FormSection title="Pathways" prefixes={['pathways']}>
        <PathwaysList />
      </FormSection>
    </div>
  );
}
