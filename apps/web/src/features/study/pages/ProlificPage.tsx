import { endpoints, NOT_ADMITTING_TEXT } from '@studychat/contracts/web';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { StudyFooter } from '../../../components/StudyFooter';
import { api, ApiError } from '../../../lib/api';
import { logout } from '../../../lib/logout';
import { clearToken, currentUser, isLoggedIn, setToken } from '../../../lib/session';
import { LoginForm } from '../../../components/LoginForm';
import { LoginRefusedError, loginAndStoreToken } from '../../../lib/login';
import { join } from '../participant-store';
import { writeSession } from '../study-storage';

const REQUIRED = ['PROLIFIC_PID', 'EXPERIMENT_ID'] as const;

const CLOSED_TITLE = 'This study is closed to new participants.';
const PAUSED_TITLE = 'This study is paused.';
const REVOKED_TITLE = 'This study login has been withdrawn.';
/** A follow-up wave's landing refuses a Prolific id that did not finish the earlier wave (docs/decisions/0091). */
const EARLIER_WAVE_TITLE = 'This follow-up study is for earlier participants.';
/** Join refusals shown as a page instead of the login (docs/decisions/0073, 0077), with their headings. */
const REFUSALS: Record<string, string> = {
  NOT_ADMITTING: CLOSED_TITLE,
  EXPERIMENT_CLOSED: CLOSED_TITLE,
  EXPERIMENT_PAUSED: PAUSED_TITLE,
  NOT_IN_EARLIER_WAVE: EARLIER_WAVE_TITLE,
};

/** The guidance under a failed login when the email or password may be wrong (spec section 2). */
const CREDENTIALS_GUIDANCE =
  'Please check that you are using the study email and password provided for this study, not a personal or Prolific login.';

/**
 * The guidance under a refusal that came after the password was accepted: one per refusal code, so a withdrawn
 * or duplicate Prolific id is never told to check a password that was right (issue 34). The server's message
 * above it says what is wrong.
 */
const REFUSAL_GUIDANCE: Readonly<Record<string, string>> = {
  PROLIFIC_ID_WITHDRAWN:
    'Your study login and password were accepted: trying them again will not help. This Prolific ID cannot take part in this study again.',
  PROLIFIC_ID_TAKEN:
    'Your study login and password were accepted, but your Prolific ID is already taking part with another study login. Log in with that one to continue.',
  PROLIFIC_ID_MISMATCH:
    'Your study login and password were accepted, but this study login belongs to another Prolific account. Use the study login you were given.',
  FORBIDDEN:
    'Your study login and password were accepted, but this study login is for another study. Use the login given with this study.',
  NOT_FOUND:
    'Your study login and password were accepted, but this study link is not valid. Please open the study again from the link on Prolific.',
};

const LINK_REFUSED_TITLE = 'This link cannot continue the study.';
/**
 * Refusals of joining by the study link alone (docs/decisions/0086-prolific-link-join.md), shown as a page; the
 * experiment's setting being off (LINK_JOIN_OFF) or anything else leaves the login form as before.
 */
const LINK_REFUSALS: Record<string, string> = {
  ...REFUSALS,
  SESSION_MISMATCH: LINK_REFUSED_TITLE,
  STUDY_MISMATCH: LINK_REFUSED_TITLE,
  PROLIFIC_ID_WITHDRAWN: LINK_REFUSED_TITLE,
  LOGIN_REVOKED: REVOKED_TITLE,
};

/** Whether the visitor already logged in is the participant the link is for (issue 34). */
type Visitor = 'checking' | 'same' | 'other';

/** `/prolific`: the participant landing with the Prolific ids in the URL (spec section 2). */
export function ProlificPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [loggedIn, setLoggedIn] = useState(isLoggedIn);
  const [visitor, setVisitor] = useState<Visitor>('checking');
  const [refusal, setRefusal] = useState<string | null>(null);
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

  // Logged in already: the same participant (this experiment, this Prolific id) may continue where they were; anyone
  // else is asked to log out first (spec section 2). Staff and a failed check count as someone else.
  const user = loggedIn ? currentUser() : null;
  const participantId = user && user.role === 'participant' ? user.userId : null;
  useEffect(() => {
    if (!loggedIn) return;
    if (!participantId || !canJoin) {
      setVisitor('other');
      return;
    }
    let live = true;
    api(endpoints.participants.get, { params: { userId: participantId, experimentId }, ownUnauthorized: true })
      .then((found) => {
        if (live) setVisitor(found.prolific_pid === prolificPid ? 'same' : 'other');
      })
      .catch((error: unknown) => {
        if (!live) return;
        // The stored login no longer works (expired or revoked): this page simply offers the login form.
        if (error instanceof ApiError && error.status === 401) {
          clearToken();
          setLoggedIn(false);
          return;
        }
        setVisitor('other');
      });
    return () => {
      live = false;
    };
  }, [loggedIn, participantId, canJoin, experimentId, prolificPid]);

  // One who joined before goes on even when the study admits no new participants (docs/decisions/0073).
  const sameParticipant = loggedIn && visitor === 'same';

  function keepIds() {
    writeSession('PROLIFIC_PID', prolificPid);
    writeSession('EXPERIMENT_ID', experimentId);
    if (studyId) writeSession('STUDY_ID', studyId);
    if (sessionId) writeSession('SESSION_ID', sessionId);
  }

  /** The same participant goes on: the study guard takes them to the step the server has them at. */
  function continueStudy() {
    keepIds();
    navigate('/consent', { replace: true });
  }

  useEffect(() => {
    if (loggedIn || missing.length > 0) return;
    writeSession('PROLIFIC_PID', prolificPid);
    writeSession('EXPERIMENT_ID', experimentId);
    if (studyId) writeSession('STUDY_ID', studyId);
    if (sessionId) writeSession('SESSION_ID', sessionId);
  }, [loggedIn, missing.length, prolificPid, experimentId, studyId, sessionId]);

  // With all three Prolific ids, the experiment may let them start or resume the study without a login: tried once;
  // with the setting off the login form stays (docs/decisions/0086-prolific-link-join.md).
  const linkTried = useRef(false);
  useEffect(() => {
    if (loggedIn || !canJoin || !studyId || !sessionId || linkTried.current) return;
    linkTried.current = true;
    api(endpoints.prolificJoin.join, { body: { experimentId, prolificPid, studyId, sessionId } })
      .then((joined) => {
        setToken(joined.token);
        keepIds();
        navigate(joined.flow ? `/flow/${experimentId}` : '/consent', { replace: true });
      })
      .catch((error: unknown) => {
        const title = error instanceof ApiError ? LINK_REFUSALS[error.code] : undefined;
        if (error instanceof ApiError && title) {
          setRefusalTitle(title);
          setNotAdmitting(error.message);
        }
      });
    // keepIds and navigate read the same ids; the attempt is made once per landing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loggedIn, canJoin, studyId, sessionId, experimentId, prolificPid]);

  async function handleLogin(email: string, password: string) {
    if (missing.length > 0) throw new Error('Cannot login without required Prolific and Experiment IDs from the URL.');
    setRefusal(null);
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
      // The password was right: the refusal says what is wrong, with its own guidance.
      if (error instanceof ApiError && REFUSAL_GUIDANCE[error.code]) {
        setRefusal(error.code);
        throw new Error(error.message);
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
        {notAdmitting === null && !sameParticipant && (
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
          {sameParticipant ? (
            <div className="space-y-4">
              <Alert tone="info">
                <p className="font-semibold">You are already logged in to this study.</p>
                <p className="mt-1">You can continue where you left off.</p>
              </Alert>
              <Button className="w-full" onClick={continueStudy}>
                Continue the study
              </Button>
            </div>
          ) : notAdmitting !== null ? (
            <Alert tone="warning">
              <p className="font-semibold">{refusalTitle}</p>
              <p className="mt-1">{notAdmitting}</p>
            </Alert>
          ) : loggedIn && visitor === 'checking' ? (
            <p className="text-slate-700" role="status">
              Checking your study login...
            </p>
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
                errorGuidance={guidanceFor(missing.length > 0, refusal)}
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

function guidanceFor(missingIds: boolean, refusal: string | null): ReactNode {
  if (missingIds) return undefined;
  return (refusal && REFUSAL_GUIDANCE[refusal]) ?? CREDENTIALS_GUIDANCE;
}
