import { useDraft } from '../editor/draft-context';
import { getAt } from '../editor/draft-path';
import { NumberInput, TextInput } from '../editor/fields';
import { ListEditor } from '../editor/ListEditor';
import { useBuilder } from './builder-context';
import { PipedBlocks } from './PipedBlocks';
import { PipedText } from './PipedText';
import { newSection } from './defaults';

/**
 * A reading step's sections, per condition (`sections.<condition>`): "This condition reads" adds or removes the
 * condition's list (a condition without one skips the step); each section's title, least seconds on screen, id
 * and text blocks; sections added, removed and moved like any list. The contract's messages show at each field.
 */
export function ReadingSectionsForm({ index }: { index: number }) {
  const { flow } = useBuilder();
  const { draft, edit, readOnly } = useDraft();
  const at = ['steps', index, 'sections'] as const;
  return (
    <>
      {flow.conditions.map((condition) => {
        const path = [...at, condition.id] as const;
        const has = Array.isArray(getAt(draft, path));
        const of = ` of condition ${condition.id} in step ${index + 1}`;
        return (
          <fieldset
            key={condition.id}
            className="min-w-0 space-y-3 border-t border-slate-200 pt-3 sm:rounded-lg sm:border sm:p-3"
          >
            <legend className="px-1 text-sm font-semibold text-slate-800">
              Sections for {condition.label} ({condition.id})
            </legend>
            <label className="flex min-h-11 items-center gap-2 text-sm font-medium text-slate-800">
              <input
                type="checkbox"
                className="h-5 w-5"
                checked={has}
                disabled={readOnly}
                onChange={(e) => edit(path, e.target.checked ? [newSection([])] : undefined)}
              />
              This condition reads<span className="sr-only">{` in step ${index + 1} (${condition.id})`}</span>
            </label>
            {has ? (
              <ListEditor
                path={path}
                legend={`Sections${of}`}
                itemName="section"
                itemSuffix={of}
                newItem={(list) => newSection(list)}
              >
                {(s) => {
                  const section = [...path, s] as const;
                  const sectionOf = ` of section ${s + 1}${of}`;
                  return (
                    <div className="space-y-3">
                      <div className="grid gap-3 sm:grid-cols-[1fr_auto]">
                        <PipedText path={[...section, 'title']} label={`Title of section ${s + 1}`} hiddenLabel={of} />
                        <NumberInput
                          path={[...section, 'minSeconds']}
                          label="Least seconds on screen"
                          hiddenLabel={sectionOf}
                          hint="1 to 3600"
                        />
                      </div>
                      <TextInput
                        path={[...section, 'id']}
                        label="Section id"
                        hiddenLabel={sectionOf}
                        hint="Lower-case letters, digits and dashes."
                      />
                      <PipedBlocks
                        path={[...section, 'blocks']}
                        legend={`Text of section ${s + 1}`}
                        place={`section ${s + 1} of condition ${condition.id} in step ${index + 1}`}
                        of={sectionOf}
                      />
                    </div>
                  );
                }}
              </ListEditor>
            ) : (
              <p className="text-sm text-slate-600">This condition skips the reading.</p>
            )}
          </fieldset>
        );
      })}
    </>
  );
}
