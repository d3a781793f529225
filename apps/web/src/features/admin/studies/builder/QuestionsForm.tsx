import { TextInput } from '../editor/fields';
import { ListEditor } from '../editor/ListEditor';
import { useBuilder } from './builder-context';
import { newQuestion, newQuestionKey } from './defaults';
import { FlowQuestionForm } from './FlowQuestionForm';
import { PipedText } from './PipedText';

/** A questions step: one page of questions of any type. */
export function QuestionsForm({ index }: { index: number }) {
  const { flow } = useBuilder();
  const at = ['steps', index] as const;
  const of = ` of step ${index + 1}`;
  return (
    <>
      <PipedText path={[...at, 'title']} label="Title" hiddenLabel={of} />
      <PipedText path={[...at, 'intro']} label="Introduction (optional)" hiddenLabel={of} rows={3} optional />
      <ListEditor
        path={[...at, 'questions']}
        legend={`Questions${of}`}
        itemName="question"
        itemSuffix={of}
        newItem={() => newQuestion('text', newQuestionKey(flow))}
      >
        {(i) => <FlowQuestionForm path={[...at, 'questions', i]} of={` of question ${i + 1} in step ${index + 1}`} />}
      </ListEditor>
      <TextInput path={[...at, 'button']} label="Button label" hiddenLabel={of} />
    </>
  );
}
