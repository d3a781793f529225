import { PROLIFIC_COMPLETION_URL, type FlowStepView } from '@studychat/contracts/web';
import { Suspense, useEffect, useRef, useState } from 'react';
import { Alert } from '../../../../components/Alert';
import { Button } from '../../../../components/Button';
import { CompletionCodeText } from '../../../../components/CompletionCodeText';
import { Spinner } from '../../../../components/Spinner';
import { copyText } from '../../../../lib/clipboard';
import { ContentBlocks } from '../../ContentBlocks';

type EndView = Extract<FlowStepView, { type: 'end' }>;

/**
 * Where a pathway ends: its page and the completion code. The participant's arrival records the completion once
 * (`onArrive` posts the end step; a repeat changes nothing), and the code comes with it.
 */
export function EndStep({ step, completed, onArrive }: { step: EndView; completed: boolean; onArrive: () => void }) {
  const asked = useRef(false);
  const [copied, setCopied] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    if (completed || asked.current) return;
    asked.current = true;
    onArrive();
  }, [completed, onArrive]);

  return (
    <div className="space-y-6">
      <Suspense fallback={<Spinner />}>
        <ContentBlocks blocks={step.blocks} />
      </Suspense>
      <div className="rounded-xl border-2 border-dashed border-brand-500 bg-brand-50 px-4 py-5 text-center">
        <p className="text-sm font-medium text-slate-700">Your completion code</p>
        {!completed ? (
          <div className="mt-2">
            <Spinner label="Recording your answers..." />
          </div>
        ) : step.code ? (
          <CompletionCodeText code={step.code} />
        ) : (
          <p className="mt-1 text-base text-slate-700">
            Your answers are recorded. No code is set for this ending: please contact the research team through
            Prolific.
          </p>
        )}
      </div>
      {completed && step.code && (
        <>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button
              variant="secondary"
              className="w-full sm:flex-1"
              onClick={() => {
                const code = step.code ?? '';
                void copyText(code).then((ok) =>
                  setCopied({
                    ok,
                    text: ok
                      ? 'Code copied.'
                      : 'Failed to copy code automatically. Please select and copy it manually.',
                  }),
                );
              }}
            >
              Copy Code
            </Button>
            <a
              href={`${PROLIFIC_COMPLETION_URL}?cc=${encodeURIComponent(step.code)}`}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 w-full items-center justify-center rounded-lg bg-brand-600 px-5 py-2.5 text-base font-semibold text-white hover:bg-brand-700 sm:flex-1"
            >
              Submit code on Prolific
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </div>
          {copied && <Alert tone={copied.ok ? 'success' : 'error'}>{copied.text}</Alert>}
          <p className="text-sm text-slate-700 sm:text-base">
            You are done: you may close this tab once you have submitted the code on Prolific.
          </p>
        </>
      )}
    </div>
  );
}
