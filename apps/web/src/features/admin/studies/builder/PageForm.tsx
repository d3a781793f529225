import { CheckInput, NumberInput, TextInput } from '../editor/fields';
import { PipedBlocks } from './PipedBlocks';
import { PipedText } from './PipedText';

/** A page step: title, text blocks (Markdown or paragraphs), least seconds on screen, button, consent. */
export function PageForm({ index }: { index: number }) {
  const at = ['steps', index] as const;
  const of = ` of step ${index + 1}`;
  return (
    <>
      <PipedText path={[...at, 'title']} label="Title" hiddenLabel={of} />
      <PipedBlocks
        path={[...at, 'blocks']}
        legend={`Text blocks of step ${index + 1}`}
        place={`step ${index + 1}`}
        of={of}
      />
      <NumberInput
        path={[...at, 'minSeconds']}
        label="Least seconds on the page"
        hiddenLabel={of}
        hint="Empty: the button works at once."
      />
      <TextInput path={[...at, 'button']} label="Button label" hiddenLabel={of} />
      <CheckInput path={[...at, 'consent']} label="The button records informed consent" hiddenLabel={of} />
    </>
  );
}
