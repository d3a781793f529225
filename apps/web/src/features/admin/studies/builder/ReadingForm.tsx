import { TextList } from '../editor/ListEditor';
import { PipeMenu } from './PipeMenu';
import { PipedText } from './PipedText';
import { ReadingSectionsForm } from './ReadingSectionsForm';

/** A timed reading step: its title, introduction paragraphs, and the sections each condition reads. */
export function ReadingForm({ index }: { index: number }) {
  const at = ['steps', index] as const;
  const of = ` of step ${index + 1}`;
  return (
    <>
      <PipedText path={[...at, 'title']} label="Title" hiddenLabel={of} />
      <TextList
        path={[...at, 'intro']}
        legend={`Introduction paragraphs${of}`}
        itemName="paragraph"
        hiddenLabel={` of the introduction${of}`}
        after={(path, label) => <PipeMenu path={path} label={label} />}
      />
      <ReadingSectionsForm index={index} />
    </>
  );
}
