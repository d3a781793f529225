import { useDraft } from './draft-context';
import { getAt, type Path } from './draft-path';
import { TextInput } from './fields';
import { ListEditor, TextList } from './ListEditor';

/**
 * Content blocks (consent, a section's text): each block's heading, paragraphs and bullets, or its Markdown
 * (a Markdown block has nothing else, docs/decisions/0052). A block's table (the risk panel) is edited in the
 * JSON view.
 */
export function BlocksForm({ path, legend }: { path: Path; legend: string }) {
  const { draft } = useDraft();
  return (
    <ListEditor
      path={path}
      legend={legend}
      itemName="block"
      newItem={() => ({ paragraphs: [''] })}
      more={[{ label: 'Add Markdown block', item: () => ({ markdown: '' }) }]}
    >
      {(index) =>
        typeof getAt(draft, [...path, index, 'markdown']) === 'string' ? (
          <TextInput
            path={[...path, index, 'markdown']}
            label={`Markdown of block ${index + 1}`}
            hint="Headings, lists, emphasis, tables and http(s) links; no HTML or images."
            rows={8}
          />
        ) : (
          <>
            <TextInput path={[...path, index, 'heading']} label={`Heading of block ${index + 1} (optional)`} optional />
            <TextList
              path={[...path, index, 'paragraphs']}
              legend={`Paragraphs of block ${index + 1}`}
              itemName="paragraph"
            />
            <TextList path={[...path, index, 'bullets']} legend={`Bullets of block ${index + 1}`} itemName="bullet" />
          </>
        )
      }
    </ListEditor>
  );
}
