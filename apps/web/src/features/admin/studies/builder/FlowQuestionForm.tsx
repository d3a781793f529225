import type { FlowQuestion, FlowQuestionType } from '@studychat/contracts/web';
import { useDraft } from '../editor/draft-context';
import { getAt, type Path } from '../editor/draft-path';
import { CheckInput, NumberInput, TextInput } from '../editor/fields';
import { ListEditor, TextList } from '../editor/ListEditor';
import { newQuestion } from './defaults';
import { AttentionCheckForm } from './AttentionCheckForm';
import { PipedText } from './PipedText';
import { SelectField } from './SelectField';

export const QUESTION_TYPES: { value: FlowQuestionType; label: string }[] = [
  { value: 'single', label: 'Single choice' },
  { value: 'multiple', label: 'Multiple choice' },
  { value: 'likert', label: 'Likert scale (2-11 points)' },
  { value: 'slider', label: 'Slider' },
  { value: 'number', label: 'Number' },
  { value: 'text', label: 'Free text' },
];

/** The labels of a scale's or slider's ends (and middle, optional). */
function EndLabels({ path, of }: { path: Path; of: string }) {
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      <TextInput path={[...path, 'min']} label="Label at the lowest" hiddenLabel={of} />
      <TextInput path={[...path, 'mid']} label="Label in the middle (optional)" hiddenLabel={of} optional />
      <TextInput path={[...path, 'max']} label="Label at the highest" hiddenLabel={of} />
    </div>
  );
}

/** One question: key, text, help, required, its type's fields, and an optional attention check. */
export function FlowQuestionForm({ path, of }: { path: Path; of: string }) {
  const { draft, edit } = useDraft();
  const q = getAt(draft, path) as FlowQuestion;
  const changeType = (type: string) => {
    const next: FlowQuestion = { ...newQuestion(type as FlowQuestionType, q.key, q.text), required: q.required };
    if (q.help !== undefined) next.help = q.help;
    edit(path, next);
  };
  return (
    <div className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <TextInput
          path={[...path, 'key']}
          label="Answer key"
          hiddenLabel={of}
          hint="Its column in the data; pipes read {{key}}."
        />
        <SelectField
          path={[...path, 'type']}
          label="Type"
          hiddenLabel={of}
          choices={QUESTION_TYPES}
          onPick={changeType}
        />
      </div>
      <PipedText path={[...path, 'text']} label="Question text" hiddenLabel={of} rows={2} />
      <PipedText path={[...path, 'help']} label="Help under the question (optional)" hiddenLabel={of} optional />
      <CheckInput path={[...path, 'required']} label="Must be answered" hiddenLabel={of} />
      {(q.type === 'single' || q.type === 'multiple') && (
        <ListEditor
          path={[...path, 'options']}
          legend={`Options${of}`}
          itemName="option"
          itemSuffix={of}
          newItem={(list) => ({ value: `option_${list.length + 1}`, label: `Option ${list.length + 1}` })}
        >
          {(i) => (
            <div className="grid gap-3 sm:grid-cols-2">
              <TextInput path={[...path, 'options', i, 'label']} label={`Label of option ${i + 1}`} hiddenLabel={of} />
              <TextInput path={[...path, 'options', i, 'value']} label={`Value of option ${i + 1}`} hiddenLabel={of} />
            </div>
          )}
        </ListEditor>
      )}
      {q.type === 'multiple' && (
        <div className="grid gap-3 sm:grid-cols-2">
          <NumberInput path={[...path, 'minChoices']} label="Fewest choices" hiddenLabel={of} />
          <NumberInput path={[...path, 'maxChoices']} label="Most choices" hiddenLabel={of} />
        </div>
      )}
      {q.type === 'likert' && (
        <>
          <NumberInput path={[...path, 'points']} label="Points (2 to 11)" hiddenLabel={of} />
          {Array.isArray(q.labels) ? (
            <TextList path={[...path, 'labels']} legend={`Label per point${of}`} itemName="label" />
          ) : (
            <EndLabels path={[...path, 'labels']} of={of} />
          )}
        </>
      )}
      {q.type === 'slider' && (
        <>
          <div className="grid gap-3 sm:grid-cols-3">
            <NumberInput path={[...path, 'min']} label="Lowest" hiddenLabel={of} />
            <NumberInput path={[...path, 'max']} label="Highest" hiddenLabel={of} />
            <NumberInput path={[...path, 'step']} label="Step" hiddenLabel={of} />
          </div>
          <EndLabels path={[...path, 'anchors']} of={of} />
        </>
      )}
      {q.type === 'number' && (
        <div className="grid gap-3 sm:grid-cols-3">
          <NumberInput path={[...path, 'min']} label="Lowest (optional)" hiddenLabel={of} />
          <NumberInput path={[...path, 'max']} label="Highest (optional)" hiddenLabel={of} />
          <CheckInput path={[...path, 'integer']} label="Whole numbers only" hiddenLabel={of} />
        </div>
      )}
      {q.type === 'text' && (
        <div className="grid gap-3 sm:grid-cols-3">
          <NumberInput path={[...path, 'minChars']} label="Fewest characters" hiddenLabel={of} />
          <NumberInput path={[...path, 'maxChars']} label="Most characters" hiddenLabel={of} />
          <CheckInput path={[...path, 'multiline']} label="Several lines" hiddenLabel={of} />
        </div>
      )}
      {q.type !== 'text' && <AttentionCheckForm path={path} question={q} of={of} />}
    </div>
  );
}
