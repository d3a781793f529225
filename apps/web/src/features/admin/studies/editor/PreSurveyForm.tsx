import { useDraft } from './draft-context';
import { getAt } from './draft-path';
import { TextInput } from './fields';
import { ListEditor } from './ListEditor';
import { QuestionForm } from './QuestionForm';

const QUESTIONS = ['pre', 'questions'] as const;

/** A key no question has yet: question_1, question_2, ... */
function freshKey(list: unknown[]): string {
  const keys = new Set(list.map((q) => getAt(q, ['key'])));
  let n = list.length + 1;
  while (keys.has(`question_${n}`)) n += 1;
  return `question_${n}`;
}

/** The pre-study survey: its title, intro, and questions (add, remove, reorder, edit each). */
export function PreSurveyForm() {
  const { draft } = useDraft();
  const questions = getAt(draft, QUESTIONS);
  return (
    <>
      <TextInput path={['pre', 'title']} label="Pre-study survey title" />
      <TextInput path={['pre', 'intro']} label="Pre-study survey introduction" rows={2} />
      {questions !== undefined && !Array.isArray(questions) ? (
        <p className="text-sm text-slate-700">The questions are not a list: fix them in the JSON view.</p>
      ) : (
        <ListEditor
          path={QUESTIONS}
          legend="Questions"
          itemName="question"
          newItem={(list) => ({
            key: freshKey(list),
            wording: '',
            type: 'choice',
            options: [
              { value: '', label: '' },
              { value: '', label: '' },
            ],
            required: true,
          })}
        >
          {(index) => <QuestionForm index={index} />}
        </ListEditor>
      )}
    </>
  );
}
