import type { FlowStepView, SubmitFlowStepBody } from '@studychat/contracts/web';
import { Suspense, useEffect, useRef } from 'react';
import { Alert } from '../../../../components/Alert';
import { Button } from '../../../../components/Button';
import { Spinner } from '../../../../components/Spinner';
import { ContentBlocks } from '../../ContentBlocks';
import { useScrolledToBottom } from '../../static/use-scrolled-to-bottom';
import { useCountdown } from './use-countdown';

type ReadingView = Extract<FlowStepView, { type: 'reading' }>;

/** Seconds the page was visible and hidden since `key` changed (reported with the finish, never used to decide). */
function useVisibility(key: unknown): () => { visibleSeconds: number; hiddenSeconds: number } {
  const times = useRef({ visible: 0, hidden: 0, since: Date.now(), shown: true });
  useEffect(() => {
    times.current = { visible: 0, hidden: 0, since: Date.now(), shown: document.visibilityState !== 'hidden' };
    const onChange = () => {
      const t = times.current;
      const now = Date.now();
      if (t.shown) t.visible += now - t.since;
      else t.hidden += now - t.since;
      t.since = now;
      t.shown = document.visibilityState !== 'hidden';
    };
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, [key]);
  return () => {
    const t = times.current;
    const open = Date.now() - t.since;
    const visible = t.visible + (t.shown ? open : 0);
    const hidden = t.hidden + (t.shown ? 0 : open);
    return { visibleSeconds: Math.round(visible / 100) / 10, hiddenSeconds: Math.round(hidden / 100) / 10 };
  };
}

/**
 * A flow's timed reading: one section at a time; Next waits for the section's minimum time (the server's clock
 * decides: a refusal restarts the countdown from the seconds it gives) and for the end of the text to be reached.
 */
export function ReadingStep({
  step,
  sending,
  message,
  retryInSeconds,
  onFinish,
}: {
  step: ReadingView;
  sending: boolean;
  message: string | null;
  /** The seconds the server said were left when it refused a finish. */
  retryInSeconds: number | null;
  onFinish: (body: SubmitFlowStepBody) => void;
}) {
  const { section } = step;
  const left = useCountdown(retryInSeconds ?? section.remainingSeconds, `${section.index}:${message ?? ''}`);
  const end = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const scrolled = useScrolledToBottom(end, section.index);
  const seen = useVisibility(section.index);
  useEffect(() => {
    if (section.index > 0) heading.current?.focus();
  }, [section.index]);
  const isLast = section.index === section.count - 1;
  return (
    <>
      {step.intro.map((paragraph) => (
        <p key={paragraph} className="mb-4 text-base text-slate-700">
          {paragraph}
        </p>
      ))}
      <p className="mb-2 text-sm font-medium text-slate-600">
        Section {section.index + 1} of {section.count}
      </p>
      <h2 ref={heading} tabIndex={-1} className="mb-4 text-xl font-semibold text-slate-900 focus:outline-none">
        {section.title}
      </h2>
      <Suspense key={section.index} fallback={<Spinner label="Loading the text..." />}>
        <ContentBlocks blocks={section.blocks} />
        <div ref={end} />
      </Suspense>
      {message && <Alert className="mt-6">{message}</Alert>}
      <div className="mt-8">
        <Button
          block
          className="min-h-12 text-lg sm:w-auto sm:px-10"
          disabled={sending || left > 0 || !scrolled}
          onClick={() => onFinish({ section: section.index, ...seen() })}
        >
          {sending ? 'Saving…' : isLast ? 'Continue' : 'Next section'}
        </Button>
        <p className="mt-3 text-sm text-slate-600" aria-live="polite">
          {left > 0
            ? `You can continue in ${left} s.`
            : !scrolled
              ? 'Please read to the end of the section to continue.'
              : ''}
        </p>
      </div>
    </>
  );
}
