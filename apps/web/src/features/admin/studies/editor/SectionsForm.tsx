import type { Condition } from '@studychat/contracts/web';
import { BlocksForm } from './BlocksForm';
import { NumberInput, TextInput } from './fields';
import { ListEditor } from './ListEditor';

/** A condition's reading: its topic and sections (title, id, minimum seconds, text blocks). */
export function SectionsForm({ condition }: { condition: Condition }) {
  const sections = ['conditions', condition, 'sections'] as const;
  return (
    <>
      <TextInput
        path={['conditions', condition, 'topic']}
        label={`Topic of the ${condition} condition`}
        hint="Shown on the page before the sections, e.g. “the MMR vaccine”."
      />
      <ListEditor
        path={sections}
        legend={`Sections of the ${condition} condition`}
        itemName="section"
        newItem={(list) => ({
          id: `section-${list.length + 1}`,
          title: '',
          minSeconds: 30,
          blocks: [{ paragraphs: [''] }],
        })}
      >
        {(index) => {
          const n = index + 1;
          return (
            <div className="space-y-3">
              <div className="grid gap-3 sm:grid-cols-[1fr_auto]">
                <TextInput path={[...sections, index, 'title']} label={`Title of ${condition} section ${n}`} />
                <NumberInput
                  path={[...sections, index, 'minSeconds']}
                  label={`Minimum seconds of ${condition} section ${n}`}
                />
              </div>
              <TextInput
                path={[...sections, index, 'id']}
                label={`Id of ${condition} section ${n}`}
                hint="Lower-case letters, digits and dashes; unique in the condition (section records use it)."
              />
              <BlocksForm
                path={[...sections, index, 'blocks']}
                legend={`Text of ${condition} section ${n}`}
                place={`${condition} section ${n}`}
              />
            </div>
          );
        }}
      </ListEditor>
    </>
  );
}
