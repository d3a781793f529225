import { PROLIFIC_COMPLETION_URL, endpoints, type Pathway } from '@studychat/contracts/web';
import { use, useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { CompletionCodeText } from '../../../components/CompletionCodeText';
import { NativeDialog } from '../../../components/NativeDialog';
import { Spinner } from '../../../components/Spinner';
import { StudyLayout } from '../../../components/StudyLayout';
import { api, ApiError } from '../../../lib/api';
import { copyText } from '../../../lib/clipboard';
import { logout } from '../../../lib/logout';
import { currentUser } from '../../../lib/session';
import { complete, useParticipant } from '../participant-store';
import { StudyContext } from '../study-context';
import { readCachedStatus, readSession, removeSession, setFlag } from '../study-storage';
import { bestEffort } from '../with-retry';
import type { FinishedState } from '../pages/FinishedPage';
import { resolvePathway } from './resolve-pathway';

type CodeState =
  { kind: 'loading' } | { kind: 'code'; code: string } | { kind: 'not-set' } | { kind: 'error'; message: string };

const NOT_CONFIGURED = 'A completion code has not been configured for this pathway. Please contact the research team.';

/** `/completion`: the completion code for the earned pathway, a copy button and the Prolific link. */
export function CompletionPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [state, setState] = useState<CodeState>({ kind: 'loading' });
  const [copyMessage, setCopyMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const { journey } = useParticipant();
  // The server's pathway wins over the navigation state and the query (spec order otherwise).
  const serverPathway = journey?.pathway ?? null;
  const navState: unknown = location.state;
  const query = params.get('pathway');
  // Completion not yet recorded (e.g. the write was lost): record it here, for the pathway the server says.
  const unrecorded = journey && journey.step !== 'completed' ? journey.pathway : null;

  useEffect(() => {
    let live = true;
    const fail = (message: string) => live && setState({ kind: 'error', message });
    void (async () => {
      if (!currentUser()?.userId) return fail('Could not retrieve your participant ID.');
      const experimentId = readSession('EXPERIMENT_ID');
      if (!experimentId) return fail('Could not determine the experiment.');
      if (unrecorded) await bestEffort('completion', () => complete(experimentId, unrecorded));
      const first = serverPathway ? { pathway: serverPathway } : navState;
      let stored: Pathway | null = readCachedStatus(experimentId)?.completionPathway ?? null;
      if (!resolvePathway(first, query, stored)) {
        try {
          const status = await api(endpoints.participants.status, { params: { experimentId } });
          stored = status.completionPathway;
        } catch (error) {
          console.warn('completion status check failed', error);
        }
      }
      const pathway = resolvePathway(first, query, stored);
      if (!pathway) return fail('Could not determine the completion pathway.');
      // Recording the completion answered with its code (cached with the status): no second request for it.
      const recorded = readCachedStatus(experimentId);
      if (recorded?.completionCode && recorded.completionPathway === pathway) {
        if (live) setState({ kind: 'code', code: recorded.completionCode });
        return;
      }
      try {
        const reply = await api(endpoints.experiments.completionCode, {
          params: { id: experimentId },
          query: { pathway },
        });
        if (live) setState({ kind: 'code', code: reply.code });
      } catch (error) {
        // 404 means "not configured" (spec); an unknown experiment (NOT_FOUND) is an error instead.
        if (error instanceof ApiError && error.status === 404 && error.code !== 'NOT_FOUND') {
          if (live) setState({ kind: 'not-set' });
          return;
        }
        fail(error instanceof Error ? error.message : 'Failed to load the completion code.');
      }
    })();
    return () => {
      live = false;
    };
  }, [navState, query, serverPathway, unrecorded]);

  async function handleCopy(code: string) {
    const ok = await copyText(code);
    setCopyMessage(
      ok
        ? { ok, text: 'Code copied to clipboard.' }
        : { ok, text: 'Failed to copy code automatically. Please select and copy it manually.' },
    );
  }

  function handleFinish() {
    removeSession('prolificLinkOpened');
    // Logged out, the study's storage cleared: a page that says they are done, not the welcome page (issue 34).
    const finished: FinishedState = {
      participantId: readSession('PROLIFIC_PID'),
      experimentId: readSession('EXPERIMENT_ID'),
    };
    void logout((path) => navigate(path, { replace: true, state: finished }), '/finished');
  }

  const code = state.kind === 'code' ? state.code : null;
  // The study's own texts, if it has them; else the spec's.
  const own = use(StudyContext)?.pages?.completion;
  return (
    <StudyLayout title="Study Complete!">
      <Card>
        <p className="text-base leading-relaxed text-slate-800 sm:text-lg">
          {own?.thanks ?? 'Thank you for taking part in this study.'}
          {(state.kind === 'code' || state.kind === 'not-set') && ' Your responses have been recorded.'}
        </p>
        <div className="mt-6 rounded-xl border-2 border-dashed border-brand-500 bg-brand-50 px-4 py-5 text-center">
          <p className="text-sm font-medium text-slate-700">Your completion code</p>
          {state.kind === 'loading' && (
            <div className="mt-2">
              <Spinner label="Loading your code..." />
            </div>
          )}
          {state.kind === 'code' && <CompletionCodeText code={state.code} />}
          {state.kind === 'not-set' && <p className="mt-1 font-mono text-2xl font-bold text-slate-700">NOT SET</p>}
          {state.kind === 'error' && <p className="mt-1 font-mono text-2xl font-bold text-red-700">ERROR</p>}
        </div>

        {state.kind === 'not-set' && (
          <div className="mt-5 space-y-3">
            <Alert>{NOT_CONFIGURED}</Alert>
            <Alert tone="info">
              A completion code is not required or has not been configured for this study. You may close this window.
            </Alert>
          </div>
        )}
        {state.kind === 'error' && <Alert className="mt-5">{state.message}</Alert>}

        {code && (
          <>
            <div className="mt-5 flex flex-col gap-3 sm:flex-row">
              <Button variant="secondary" className="w-full sm:flex-1" onClick={() => void handleCopy(code)}>
                Copy Code
              </Button>
              <a
                href={`${PROLIFIC_COMPLETION_URL}?cc=${encodeURIComponent(code)}`}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => {
                  setFlag('prolificLinkOpened');
                  setConfirmOpen(true);
                }}
                className="inline-flex min-h-11 w-full items-center justify-center rounded-lg bg-brand-600 px-5 py-2.5 text-base font-semibold text-white hover:bg-brand-700 sm:flex-1"
              >
                Submit code on Prolific
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </div>
            {copyMessage && (
              <Alert tone={copyMessage.ok ? 'success' : 'error'} className="mt-4">
                {copyMessage.text}
              </Alert>
            )}
            <p className="mt-5 text-sm text-slate-700 sm:text-base">
              {own?.instructions ??
                'Please submit this code on Prolific so that your participation can be confirmed and paid. The link opens Prolific in a new tab with your code filled in.'}
            </p>
          </>
        )}
      </Card>
      <NativeDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title="Confirm Submission & Exit"
        description="Once you have submitted your code on Prolific, you can finish here. This logs you out of the study and clears the study data stored in this browser."
      >
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setConfirmOpen(false)}>
            Cancel
          </Button>
          <Button onClick={handleFinish}>Finish &amp; Close Window</Button>
        </div>
      </NativeDialog>
    </StudyLayout>
  );
}
