import { useBuilder } from './builder-context';
import { PipedBlocks } from './PipedBlocks';
import { PipedText } from './PipedText';
import { SelectField } from './SelectField';

/** An end step: the pathway it closes (its completion code follows the page), the title and text. */
export function EndForm({ index }: { index: number }) {
  const { flow } = useBuilder();
  const at = ['steps', index] as const;
  const of = ` of step ${index + 1}`;
  return (
    <>
      <SelectField
        path={[...at, 'pathway']}
        label="Pathway"
        hiddenLabel={of}
        choices={flow.pathways.map((p) => ({ value: p.key, label: `${p.label} (${p.key})` }))}
      />
      <PipedText path={[...at, 'title']} label="Title" hiddenLabel={of} />
      <PipedBlocks
        path={[...at, 'blocks']}
        legend={`Text blocks of step ${index + 1}`}
        place={`step ${index + 1}`}
        of={of}
      />
    </>
  );
}
