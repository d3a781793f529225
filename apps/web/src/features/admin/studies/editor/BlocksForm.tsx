import type { Path } from './draft-path';
import { TextInput } from './fields';
import { ListEditor, TextList } from './ListEditor';

/**
 * Content blocks (consent, a section's text): each block's heading, paragraphs and bullets. A block's table
 * (the risk panel) is edited in the JSON view.
 */
export function BlocksForm({ path, legend }: { path: Path; legend: string }) {
  return (
    <ListEditor path={path} legend={legend} itemName="block" newItem={() => ({ paragraphs: [''] })}>
      {(index) => (
        <>
          <TextInput path={[...path, index, 'heading']} label={`Heading of block ${index + 1} (optional)`} optional />
          <TextList
            path={[...path, index, 'paragraphs']}
            legend={`Paragraphs of block ${index + 1}`}
            itemName="paragraph"
          />
          <TextList path={[...path, index, 'bullets']} legend={`Bullets of block ${index + 1}`} itemName="bullet" />
        </>
      )}
    </ListEditor>
  );
}
