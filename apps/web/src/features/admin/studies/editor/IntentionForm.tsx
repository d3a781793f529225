import { TextInput } from './fields';
import { ScaleLabelsForm } from './ScaleLabelsForm';

/** The baseline and post questions (1-7 intention): wording, scale labels and answer keys. */
export function IntentionForm() {
  return (
    <>
      <TextInput path={['baseline', 'question']} label="Baseline question" rows={3} />
      <ScaleLabelsForm path={['baseline', 'labels']} of="the baseline scale" />
      <TextInput path={['baseline', 'key']} label="Baseline answer key" />
      <TextInput path={['post', 'title']} label="Post question page title" />
      <TextInput path={['post', 'question']} label="Post question" rows={3} />
      <TextInput path={['post', 'key']} label="Post answer key" />
    </>
  );
}
