import { TextList } from '../editor/ListEditor';
import { PipedText } from './PipedText';

/** A timed reading step: its title and introduction here; its sections per condition in the JSON view. */
export function ReadingForm({ index }: { index: number }) {
  const at = ['steps', index] as const;
  const of = ` of step ${index + 1}`;
  return (
    <>
      <PipedText path={[...at, 'title']} label="Title" hiddenLabel={of} />
      <TextList path={[...at, 'intro']} legend={`Introduction paragraphs${of}`} itemName="paragraph" />
      <p className="text-sm text-slate-600">
        The sections each condition reads (timed and scroll-gated) are edited in the JSON view below.
      </p>
    </>
  );
}
