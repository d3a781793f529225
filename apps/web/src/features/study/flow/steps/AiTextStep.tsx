import { textLength, type FlowStepView } from '@studychat/contracts/web';
import { useEffect, useId, useState } from 'react';
import { Alert } from '../../../../components/Alert';
import { Button } from '../../../../components/Button';
import { Spinner } from '../../../../components/Spinner';
import { generateFlowText } from '../flow-api';

type AiTextView = Extract<FlowStepView, { type: 'ai_text' }>;

/**
 * A text the AI writes from the participant's answers: asked for once (the server keeps the first), then
 * confirmed as it is or corrected where the study allows.
 */
export function AiTextStep({
  experimentId,
  step,
  sending,
  message,
  onConfirm,
}: {
  experimentId: string;
  step: AiTextView;
  sending: boolean;
  message: string | null;
  onConfirm: (text: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState<string | null>(step.generated);
  const [draft, setDraft] = useState(step.generated ?? '');
  const [failed, setFailed] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (text !== null) return;
    let live = true;
    generateFlowText(experimentId, step.id)
      .then((reply) => {
        if (!live) return;
        setText(reply.text);
        setDraft(reply.text);
      })
      .catch((error: unknown) => {
        if (live)
          setFailed(error instanceof Error ? error.message : 'The text could not be written. Please try again.');
      });
    return () => {
      live = false;
    };
  }, [experimentId, step.id, text, attempt]);

  if (text === null) {
    return failed ? (
      <div className="space-y-4">
        <Alert>{failed}</Alert>
        <Button
          onClick={() => {
            setFailed(null);
            setAttempt((a) => a + 1);
          }}
        >
          Try again
        </Button>
      </div>
    ) : (
      <Spinner label="The AI is writing the text. This takes a few seconds…" />
    );
  }
  const length = textLength(draft);
  const tooLong = length > step.maxChars;
  const empty = length === 0;
  return (
    <div className="space-y-5">
      <p className="text-base leading-relaxed text-slate-800 sm:text-lg">{step.instructions}</p>
      {step.allowCorrection ? (
        <div>
          <label htmlFor={id} className="block font-semibold text-slate-900">
            The text (you may correct it)
          </label>
          <textarea
            id={id}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            rows={5}
            aria-describedby={`${id}-count`}
            className="mt-2 block w-full rounded-lg border border-slate-300 px-3 py-2 text-base text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500 focus:outline-none"
          />
          <p id={`${id}-count`} className={`mt-1 text-sm ${tooLong ? 'font-medium text-red-700' : 'text-slate-600'}`}>
            {length} / {step.maxChars} characters
          </p>
        </div>
      ) : (
        <blockquote className="rounded-lg border-l-4 border-brand-500 bg-brand-50 px-4 py-3 text-base text-slate-900 sm:text-lg">
          {text}
        </blockquote>
      )}
      {message && <Alert>{message}</Alert>}
      <Button
        block
        className="min-h-12 text-lg sm:w-auto sm:px-10"
        disabled={sending || tooLong || empty}
        onClick={() => onConfirm(step.allowCorrection ? draft : text)}
      >
        {sending ? 'Saving…' : step.confirmLabel}
      </Button>
    </div>
  );
}
