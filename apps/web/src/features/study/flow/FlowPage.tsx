import type { FlowView, SubmitFlowStepBody } from '@studychat/contracts/web';
import { lazy, Suspense, useEffect } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { PageLoading } from '../../../components/PageLoading';
import { Spinner } from '../../../components/Spinner';
import { StudyLayout } from '../../../components/StudyLayout';
import { PageStep } from './steps/PageStep';
import { RandomiseStep } from './steps/RandomiseStep';
import { useFlow, type StepRefusal } from './use-flow';
import { PlacesTaken } from '../PlacesTaken';

// The chat, the questions, the AI text and the end are chunks of their own (each page loads only what its step
// shows; the chat is most of a page's code): loaded in the background once the flow is on screen, so reaching a
// step never waits on the network.
const loadChat = () => import('./steps/ChatStep');
const loadAiText = () => import('./steps/AiTextStep');
const loadQuestions = () => import('./steps/QuestionsStep');
const loadEnd = () => import('./steps/EndStep');
const loadReading = () => import('./steps/ReadingStep');
const ChatStep = lazy(() => loadChat().then((m) => ({ default: m.ChatStep })));
const AiTextStep = lazy(() => loadAiText().then((m) => ({ default: m.AiTextStep })));
const QuestionsStep = lazy(() => loadQuestions().then((m) => ({ default: m.QuestionsStep })));
const EndStep = lazy(() => loadEnd().then((m) => ({ default: m.EndStep })));
const ReadingStep = lazy(() => loadReading().then((m) => ({ default: m.ReadingStep })));

function usePreloadSteps(): void {
  useEffect(() => {
    const run = () => {
      for (const load of [loadQuestions, loadChat, loadAiText, loadReading, loadEnd]) load().catch(() => undefined);
    };
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(run, { timeout: 3000 });
    else window.setTimeout(run, 1000);
  }, []);
}

/** "Step 2 of 6" above the step (none at the end). */
function Progress({ view }: { view: FlowView }) {
  if (view.step.type === 'end' || view.total === 0) return null;
  return (
    <p className="mb-2 text-sm font-medium text-slate-600">
      Step {view.position} of {view.total}
    </p>
  );
}

function Step({
  experimentId,
  view,
  sending,
  refusal,
  submit,
}: {
  experimentId: string;
  view: FlowView;
  sending: boolean;
  refusal: StepRefusal | null;
  submit: (stepId: string, body?: SubmitFlowStepBody) => Promise<boolean>;
}) {
  const { step } = view;
  switch (step.type) {
    case 'page':
      return <PageStep step={step} sending={sending} onNext={() => void submit(step.id)} />;
    case 'questions':
      return (
        <Suspense key={step.id} fallback={<Spinner />}>
          <QuestionsStep
            step={step}
            sending={sending}
            serverProblems={refusal?.byKey ?? {}}
            message={refusal?.message ?? null}
            onSubmit={(answers) => void submit(step.id, { answers })}
          />
        </Suspense>
      );
    case 'ai_text':
      return (
        <Suspense key={step.id} fallback={<Spinner />}>
          <AiTextStep
            experimentId={experimentId}
            step={step}
            sending={sending}
            message={refusal?.message ?? null}
            onConfirm={(text) => void submit(step.id, { text })}
          />
        </Suspense>
      );
    case 'reading':
      return (
        <Suspense key={step.id} fallback={<Spinner />}>
          <ReadingStep
            step={step}
            sending={sending}
            message={refusal?.message ?? null}
            retryInSeconds={refusal?.remainingSeconds ?? null}
            onFinish={(body) => void submit(step.id, body)}
          />
        </Suspense>
      );
    case 'randomise':
      return <RandomiseStep key={step.id} onArrive={() => void submit(step.id)} />;
    case 'end':
      return (
        <Suspense key={step.id} fallback={<Spinner />}>
          <EndStep step={step} completed={view.completed} onArrive={() => void submit(step.id)} />
        </Suspense>
      );
    case 'chat':
      // Rendered full-screen by FlowPage.
      return null;
  }
}

/**
 * `/flow/:experimentId`: a study written as a flow (issue 30). The server says which step the participant is at
 * and answers each write with the next; the page shows that step in the study's words and footer.
 */
export function FlowPage({ experimentId }: { experimentId: string }) {
  const { load, sending, refusal, submit, refresh } = useFlow(experimentId);
  usePreloadSteps();
  if (load.kind === 'loading') return <PageLoading />;
  if (load.kind === 'failed') {
    return (
      <StudyLayout title="This page could not be loaded">
        <Alert>{load.message}</Alert>
        <Button className="mt-5" onClick={() => void refresh()}>
          Try again
        </Button>
      </StudyLayout>
    );
  }
  const { view } = load;
  const { step } = view;
  if (step.type === 'chat') {
    return (
      <div>
        <Suspense fallback={<PageLoading />}>
          <ChatStep
            experimentId={experimentId}
            step={step}
            condition={view.condition}
            onProceed={() => void refresh()}
          />
        </Suspense>
      </div>
    );
  }
  // Every place open to the participant was taken at the randomisation: a page of its own, nothing to retry.
  if (step.type === 'randomise' && refusal?.code === 'QUOTA_FULL') return <PlacesTaken />;
  // A step the page sends by itself (randomise, end) that failed: say so and offer to try again.
  const automatic = (step.type === 'randomise' || (step.type === 'end' && !view.completed)) && refusal !== null;
  return (
    <StudyLayout title={step.type === 'randomise' ? undefined : step.title} disclaimer={view.texts.disclaimer}>
      <Progress view={view} />
      {automatic ? (
        <div className="space-y-4">
          <Alert>{refusal.message}</Alert>
          <Button onClick={() => void submit(step.id)} disabled={sending}>
            Try again
          </Button>
        </div>
      ) : (
        <Step experimentId={experimentId} view={view} sending={sending} refusal={refusal} submit={submit} />
      )}
    </StudyLayout>
  );
}
