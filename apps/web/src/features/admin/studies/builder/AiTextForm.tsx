import { CheckInput, NumberInput, TextInput } from '../editor/fields';
import { ModelFields } from './ModelFields';
import { PipedText } from './PipedText';

/** An AI text step: one model call from a prompt with pipes, shown for the participant to confirm or correct. */
export function AiTextForm({ index }: { index: number }) {
  const at = ['steps', index] as const;
  const of = ` of step ${index + 1}`;
  return (
    <>
      <PipedText path={[...at, 'title']} label="Title" hiddenLabel={of} />
      <PipedText path={[...at, 'instructions']} label="Instructions to the participant" hiddenLabel={of} rows={3} />
      <PipedText
        path={[...at, 'prompt']}
        label="Prompt"
        hiddenLabel={of}
        rows={6}
        hint="Sent to the model; pipe earlier answers with Insert answer."
      />
      <ModelFields path={[...at, 'model']} of={of} />
      <CheckInput path={[...at, 'allowCorrection']} label="The participant may correct the text" hiddenLabel={of} />
      <NumberInput path={[...at, 'maxChars']} label="Most characters" hiddenLabel={of} />
      <TextInput path={[...at, 'confirmLabel']} label="Confirm button label" hiddenLabel={of} />
      <TextInput path={[...at, 'scripted']} label="Scripted text (offline model)" hiddenLabel={of} rows={2} />
    </>
  );
}
