import { TextInput } from './fields';
import { TextList } from './ListEditor';

/** The entry page: the scenario, the reminder it quotes, the two buttons, and the answer key and values they store. */
export function EntryForm() {
  return (
    <>
      <TextInput path={['entry', 'title']} label="Entry page title" />
      <TextList path={['entry', 'scenario']} legend="Scenario paragraphs" itemName="scenario paragraph" />
      <TextInput
        path={['entry', 'reminder']}
        label="Reminder quoted on the entry and baseline pages"
        hint="Shown as a quote after the first scenario paragraph, and again above the baseline question."
        rows={3}
      />
      <TextInput path={['entry', 'questionsLabel']} label="Button to go on (has questions)" />
      <TextInput path={['entry', 'confirmLabel']} label="Button to leave (no concerns)" />
      <div className="grid gap-3 sm:grid-cols-3">
        <TextInput path={['entry', 'key']} label="Entry answer key" />
        <TextInput path={['entry', 'values', 'continue']} label="Value stored to go on" />
        <TextInput path={['entry', 'values', 'exit']} label="Value stored to leave" />
      </div>
    </>
  );
}
