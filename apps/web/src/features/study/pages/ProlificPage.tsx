import { endpoints, NOT_ADMITTING_TEXT } from '@studychat/contracts/web';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { StudyFooter } from '../../../components/StudyFooter';
import { api, ApiError } from '../../../lib/api';
import { logout } from '../../../lib/logout';
import { clearToken, isLoggedIn } from '../../../lib/session';
import { LoginForm } from '../../../components/LoginForm';
import { LoginRefusedError, loginAndStoreToken } from '../../../lib/login';
import { join } from '../participant-store';
import { writeSession } from '../study-storage';

const REQUIRED = ['PROLIFIC_PID', 'EXPERIMENT_ID'] as const;

const CLOSED_TITLE = 'This study is closed to new participants.';
const PAUSED_TITLE = 'This study is paused.';
const REVOKED_TITLE = 'This study login has been withdrawn.';
/** Join refusals shown as a page instead of the login (docs/decisions/0073, 0077), with their headings. */
const REFUSALS: Record<string, string> = {
  NOT_ADMITTING: CLOSED_TITLE,
  EXPERIMENT_CLOSED: CLOSED_TITLE,
  EXPERIMENT_PAUSED: PAUSED_TITLE,
};

/** `/prolific`: the participant landing with the Prolific ids in the URL (spec section 2). */
export function ProlificPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [loggedIn, setLoggedIn] = useState(isLoggedIn);
  const prolificPid = params.get('PROLIFIC_PID')?.trim() ?? '';
  const experimentId = params.get('EXPERIMENT_ID')?.trim() ?? '';
  const studyId = params.get('STUDY_ID')?.trim() ?? '';
  const sessionId = params.get('SESSION_ID')?.trim() ?? '';
  const missing = REQUIRED.filter((key) => !(key === 'PROLIFIC_PID' ? prolificPid : experimentId));
  // Set when the study admits no new participants (paused, closed, or its chat budget nearly spent): the login is
  // not offered, so no study login is spent on it (docs/decisions/0073, 0077). Also set for a revoked login.
  const [notAdmitting, setNotAdmitting] = useState<string | null>(null);
  const [refusalTitle, setRefusalTitle] = useState(CLOSED_TITLE);
  const canJoin = missing.length === 0;

  useEffect(() => {
    if (!canJoin) return;
    let live = true;
    api(endpoints.participants.admission, { params: { experimentId } })
      .then((admission) => {
        if (live && !admission.admitting) {
          setRefusalTitle(admission.reason === 'paused' ? PAUSED_TITLE : CLOSED_TITLE);
          setNotAdmitting(admission.message ?? NOT_ADMITTING_TEXT);
        }
      })
      // Unreachable or unknown: offer the login as before; joining refuses whoever it must.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [canJoin, experimentId]);

  useEffect(() => {
    if (loggedIn || missing.length > 0) return;
    writeSession('PROLIFIC_PID', prolificPid);
    writeSession('EXPERIMENT_ID', experimentId);
    if (studyId) writeSession('STUDY_ID', studyId);
    if (sessionId) writeSession('SESSION_ID', sessionId);
  }, [loggedIn, missing.length, prolificPid, experimentId, studyId, sessionId]);

  async function handleLogin(email: string, password: string) {
    if (missing.length > 0) throw new Error('Cannot login without required Prolific and Experiment IDs from the URL.');
    let result: Awaited<ReturnType<typeof loginAndStoreToken>>;
    try {
      result = await loginAndStoreToken(email, password, 'Login failed');
    } catch (error) {
      if (error instanceof LoginRefusedError && error.code === 'LOGIN_REVOKED') {
        setRefusalTitle(REVOKED_TITLE);
        setNotAdmitting(error.message);
        return;
      }
      throw error;
    }
    let flow = false;
    try {
      flow = (await join(result.user.id, experimentId)).flow === true;
    } catch (error) {
      // Without an assignment the study cannot go on: stay logged out so the participant can retry.
      clearToken();
      if (error instanceof ApiError && REFUSALS[error.code]) {
        setRefusalTitle(REFUSALS[error.code] ?? CLOSED_TITLE);
        setNotAdmitting(error.message);
        return;
      }
      throw error instanceof Error ? error : new Error('Login failed');
    }
    try {
      await api(endpoints.participants.prolificId, { body: { experimentId, prolificId: prolificPid } });
    } catch (error) {
      console.warn('updating the Prolific id failed', error);
    }
    // A study written as a flow (issue 30) shows its own steps; a returning participant reaches it through the guard.
    navigate(flow ? `/flow/${experimentId}` : '/consent', { replace: true });
  }

  return (
    <div className="flex min-h-dvh flex-col">
      <main className="mx-auto w-full max-w-md flex-1 px-4 pt-8 pb-6 sm:pt-16">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Research study</p>
        <h1 className="mt-1 text-2xl font-bold text-slate-900 sm:text-3xl">Welcome</h1>
        {notAdmitting === null && (
          <p className="mt-2 text-slate-700">
            Thank you for taking part. Please log in with the study login you were given for this study.
          </p>
        )}
        {missing.length > 0 && (
          <Alert className="mt-5">
            Missing required URL parameters: {missing.join(', ')}. Please use the link provided by Prolific.
          </Alert>
        )}
        <Card className="mt-6">
          {notAdmitting !== null ? (
            <Alert tone="warning">
              <p className="font-semibold">{refusalTitle}</p>
              <p className="mt-1">{notAdmitting}</p>
            </Alert>
          ) : loggedIn ? (
            <div className="space-y-4">
              <Alert tone="warning">
                You are already logged in. Please log out first, then log in with your study login to start the study.
              </Alert>
              <Button
                className="w-full"
                onClick={() =>
                  void logout((path) => {
                    setLoggedIn(false);
                    navigate(path, { replace: true });
                  }, location.pathname + location.search)
                }
              >
                Log Out
              </Button>
            </div>
          ) : (
            <>
              <h2 className="mb-4 text-lg font-semibold text-slate-900">Log in to the study</h2>
              <LoginForm
                emailLabel="Study email"
                emailHint="Your study email looks like a generated research address, such as study-ab12cd34@studychat.local."
                passwordHint="Do not use your personal email or your Prolific login here."
                errorGuidance={
                  missing.length > 0
                    ? undefined
                    : 'Please check that you are using the study email and password provided for this study, not a personal or Prolific login.'
                }
                onSubmit={handleLogin}
              />
            </>
          )}
        </Card>
      </main>
      <StudyFooter participantId={prolificPid || null} experimentId={experimentId || null} />
    </div>
  );
}
