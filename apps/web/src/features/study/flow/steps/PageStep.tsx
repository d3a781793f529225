import type { FlowStepView } from '@studychat/contracts/web';
import { Suspense } from 'react';
import { Button } from '../../../../components/Button';
import { Spinner } from '../../../../components/Spinner';
import { ContentBlocks } from '../../ContentBlocks';
import { useCountdown } from './use-countdown';

type PageView = Extract<FlowStepView, { type: 'page' }>;

/** A page of text with its button; the button waits for the page's minimum time (the server checks it too). */
export function PageStep({ step, sending, onNext }: { step: PageView; sending: boolean; onNext: () => void }) {
  const left = useCountdown(step.remainingSeconds);
  return (
    <>
      <Suspense fallback={<Spinner label="Loading the text..." />}>
        <ContentBlocks blocks={step.blocks} />
      </Suspense>
      <div className="mt-8">
        <Button block className="min-h-12 text-lg sm:w-auto sm:px-10" disabled={sending || left > 0} onClick={onNext}>
          {sending ? 'Saving…' : step.button}
        </Button>
        {left > 0 && (
          <p className="mt-3 text-sm text-slate-600" aria-live="polite">
            You can continue in {left} s.
          </p>
        )}
      </div>
    </>
  );
}
