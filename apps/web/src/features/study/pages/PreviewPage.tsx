import { endpoints } from '@studychat/contracts/web';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Card } from '../../../components/Card';
import { api, ApiError } from '../../../lib/api';
import { isLoggedIn, setToken } from '../../../lib/session';
import { writeSession } from '../study-storage';

export const PREVIEW_SIGNED_IN_TEXT =
  'This browser is already signed in (your admin session, or another participant). Open the preview link in a private window or another browser profile: signing in here would replace that session.';

/**
 * `/preview#<token>`: signs a fresh browser in as the preview's test participant, once (docs/decisions/0045),
 * then starts the study at the consent page. A browser that already holds a session is never switched.
 */
export function PreviewPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [signedIn] = useState(isLoggedIn);
  const started = useRef(false);

  useEffect(() => {
    if (signedIn || started.current) return;
    started.current = true;
    const token = window.location.hash.slice(1);
    // The token leaves the address bar and history at once: it works a single time anyway.
    window.history.replaceState(null, '', window.location.pathname);
    if (!token) {
      setError('This preview link is incomplete. Copy the whole link from the experiment page.');
      return;
    }
    api(endpoints.preview.redeem, { body: { token } })
      .then((reply) => {
        setToken(reply.token);
        writeSession('PROLIFIC_PID', reply.prolific_pid);
        writeSession('EXPERIMENT_ID', reply.experiment_id);
        void navigate('/consent', { replace: true });
      })
      .catch((e: unknown) => {
        setError(e instanceof ApiError ? e.message : 'The preview could not be started. Please try again.');
      });
  }, [navigate, signedIn]);

  return (
    <main className="mx-auto w-full max-w-md px-4 pt-8 sm:pt-16">
      <h1 className="text-2xl font-bold text-slate-900">Study preview</h1>
      <Card className="mt-6">
        {signedIn ? (
          <Alert tone="warning">{PREVIEW_SIGNED_IN_TEXT}</Alert>
        ) : error ? (
          <Alert>{error}</Alert>
        ) : (
          <p className="text-slate-700">Starting the preview...</p>
        )}
      </Card>
    </main>
  );
}
