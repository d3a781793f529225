import { answerProblem, type AnswerValue, type FlowQuestion, type FlowStepView } from '@studychat/contracts/web';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../../components/Alert';
import { Button } from '../../../../components/Button';
import { QuestionField } from '../QuestionField';

type QuestionsView = Extract<FlowStepView, { type: 'questions' }>;

/** One page of questions: every problem shown under its question on Continue; the server checks again. */
export function QuestionsStep({
  step,
  sending,
  serverProblems,
  message,
  onSubmit,
}: {
  step: QuestionsView;
  sending: boolean;
  /** The server's problems by question key (a refused write). */
  serverProblems: Record<string, string>;
  message: string | null;
  onSubmit: (answers: Record<string, AnswerValue>) => void;
}) {
  const [answers, setAnswers] = useState<Record<string, AnswerValue | undefined>>({});
  const [tried, setTried] = useState(false);
  const problemOf = (q: FlowQuestion) =>
    (tried ? answerProblem(q, answers[q.key]) : null) ?? serverProblems[q.key] ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    const problems = step.questions.filter((q) => answerProblem(q as FlowQuestion, answers[q.key]) !== null);
    if (problems.length > 0) {
      // The first question to answer gets the focus (the browser scrolls it into view).
      document
        .getElementById(`question-${problems[0]?.key ?? ''}`)
        ?.querySelector<HTMLElement>('input, textarea, select')
        ?.focus();
      return;
    }
    const given = Object.fromEntries(
      Object.entries(answers).filter((entry): entry is [string, AnswerValue] => entry[1] !== undefined),
    );
    onSubmit(given);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-8">
      {step.intro && (
        <p className="text-base leading-relaxed whitespace-pre-line text-slate-800 sm:text-lg">{step.intro}</p>
      )}
      <p className="text-sm text-slate-600">
        Questions marked <span className="text-red-700">*</span> need an answer.
      </p>
      {step.questions.map((q) => (
        <div key={q.key} id={`question-${q.key}`}>
          <QuestionField
            question={q as FlowQuestion}
            value={answers[q.key]}
            onChange={(value) => setAnswers((a) => ({ ...a, [q.key]: value }))}
            problem={problemOf(q as FlowQuestion)}
          />
        </div>
      ))}
      {message && <Alert>{message}</Alert>}
      <Button type="submit" block className="min-h-12 text-lg sm:w-auto sm:px-10" disabled={sending}>
        {sending ? 'Saving…' : step.button}
      </Button>
    </form>
  );
}
