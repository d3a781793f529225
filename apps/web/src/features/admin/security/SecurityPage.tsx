import { endpoints, type TotpSetup } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TextField } from '../../../components/TextField';
import { api } from '../../../lib/api';
import { BackLink } from '../BackLink';
import { serverMessage } from '../format';
import { TotpQrCode } from './TotpQrCode';
import { ProlificCard } from './ProlificCard';

const STATUS_KEY = ['security', 'status'];

/** A 6-digit code form (enable or disable two-factor). */
function CodeForm({
  label,
  action,
  onCode,
}: {
  label: string;
  action: string;
  onCode: (code: string) => Promise<unknown>;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onCode(code.replace(/\s/g, ''));
      setCode('');
    } catch (err) {
      setError(serverMessage(err, 'That did not work. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="mt-4 space-y-3">
      <TextField
        label={label}
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={7}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        required
      />
      {error && (
        <Alert>
          <p>{error}</p>
        </Alert>
      )}
      <Button type="submit" disabled={busy || code.trim() === ''}>
        {action}
      </Button>
    </form>
  );
}

/**
 * `/admin/security`: two-factor authentication for the account, the Prolific connection (admins only), and logging
 * the account out everywhere.
 */
export function SecurityPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const status = useQuery({
    queryKey: STATUS_KEY,
    queryFn: ({ signal }) => api(endpoints.security.status, { signal }),
  });
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const start = useMutation({ mutationFn: () => api(endpoints.security.totpSetup, {}), onSuccess: setSetup });
  const refresh = (next: unknown) => queryClient.setQueryData(STATUS_KEY, next);
  const everywhere = useMutation({
    mutationFn: () => api(endpoints.security.logoutAll, {}),
    onSuccess: () => {
      // This session ended too.
      localStorage.clear();
      sessionStorage.clear();
      navigate('/login', { replace: true });
    },
  });

  return (
    <div className="space-y-4">
      <BackLink to="/admin">Back to Dashboard</BackLink>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Security</h1>
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Two-factor authentication</h2>
        {status.isPending ? (
          <Spinner label="Loading..." />
        ) : status.isError ? (
          <Alert>
            <p>{serverMessage(status.error, 'Failed to load your security settings.')}</p>
          </Alert>
        ) : status.data.totpEnabled ? (
          <>
            <p className="mt-2 text-slate-700">
              On: every login asks for the 6-digit code from your authenticator app.
            </p>
            {status.data.totpRequired ? (
              <p className="mt-2 text-sm text-slate-600">This server requires it for admin accounts.</p>
            ) : (
              <CodeForm
                label="Current code, to turn it off"
                action="Turn off"
                onCode={async (code) => refresh(await api(endpoints.security.totpDisable, { body: { code } }))}
              />
            )}
          </>
        ) : (
          <>
            {status.data.totpRequired && (
              <Alert tone="warning" className="mt-3">
                <p>This server requires two-factor authentication: set it up to use the admin area.</p>
              </Alert>
            )}
            <p className="mt-2 text-slate-700">
              Off. With it on, a login needs your password and a code from an authenticator app on your phone.
            </p>
            {setup ? (
              <div className="mt-4 space-y-2">
                <p className="text-slate-700">Scan this QR code with your authenticator app (it is shown only now):</p>
                <TotpQrCode url={setup.otpauthUrl} />
                <p className="text-slate-700">
                  Or add this key to your authenticator app, or open the link on the phone that has the app:
                </p>
                <p className="rounded-lg bg-slate-100 px-3 py-2 font-mono text-lg tracking-wider break-all text-slate-900">
                  {setup.secret}
                </p>
                <p className="text-sm break-all">
                  <a className="text-brand-700 underline" href={setup.otpauthUrl}>
                    {setup.otpauthUrl}
                  </a>
                </p>
                <CodeForm
                  label="The code your app shows now"
                  action="Turn on"
                  onCode={async (code) => {
                    refresh(await api(endpoints.security.totpEnable, { body: { code } }));
                    setSetup(null);
                  }}
                />
              </div>
            ) : (
              <div className="mt-4">
                <Button onClick={() => start.mutate()} disabled={start.isPending}>
                  Set up two-factor authentication
                </Button>
                {start.isError && (
                  <Alert className="mt-3">
                    <p>{serverMessage(start.error, 'Could not start the set-up.')}</p>
                  </Alert>
                )}
              </div>
            )}
          </>
        )}
      </Card>
      {status.data?.role === 'admin' && <ProlificCard />}
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Sessions</h2>
        <p className="mt-2 text-slate-700">
          Logs this account out on every device and browser, this one included (for a lost phone or laptop).
        </p>
        <Button variant="danger" className="mt-4" onClick={() => everywhere.mutate()} disabled={everywhere.isPending}>
          Log out everywhere
        </Button>
        {everywhere.isError && (
          <Alert className="mt-3">
            <p>{serverMessage(everywhere.error, 'Could not log out everywhere.')}</p>
          </Alert>
        )}
      </Card>
    </div>
  );
}
