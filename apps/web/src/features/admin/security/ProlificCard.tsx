import { endpoints, type ProlificConnection, type ProlificTestReply } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TextField } from '../../../components/TextField';
import { api } from '../../../lib/api';
import { serverMessage } from '../format';

const KEY = ['prolific', 'connection'];

/**
 * The Prolific connection (admins only, docs/decisions/0083-prolific-api.md): the API token and the webhook
 * secret are written here and never shown again; "Test connection" asks Prolific who the token belongs to.
 */
export function ProlificCard() {
  const queryClient = useQueryClient();
  const connection = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api(endpoints.prolific.connection, { signal }),
  });
  const [apiToken, setApiToken] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const [tested, setTested] = useState<ProlificTestReply | null>(null);
  const stored = (next: ProlificConnection) => {
    queryClient.setQueryData(KEY, next);
    setTested(null);
  };
  const save = useMutation({
    mutationFn: () =>
      api(endpoints.prolific.save, {
        body: {
          ...(apiToken.trim() ? { apiToken: apiToken.trim() } : {}),
          ...(webhookSecret.trim() ? { webhookSecret: webhookSecret.trim() } : {}),
        },
      }),
    onSuccess: (next) => {
      stored(next);
      setApiToken('');
      setWebhookSecret('');
    },
  });
  const clear = useMutation({ mutationFn: () => api(endpoints.prolific.clear, {}), onSuccess: stored });
  const test = useMutation({ mutationFn: () => api(endpoints.prolific.test, {}), onSuccess: setTested });

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate();
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Prolific</h2>
      {connection.isPending ? (
        <Spinner label="Loading..." />
      ) : connection.isError ? (
        <Alert>
          <p>{serverMessage(connection.error, 'Failed to load the Prolific connection.')}</p>
        </Alert>
      ) : (
        <>
          <p className="mt-2 text-slate-700" data-testid="prolific-state">
            {connection.data.tokenSet
              ? 'Connected: an API token is set. Submissions of linked studies are completed by the server.'
              : 'Not connected: no API token is set, so nothing calls Prolific.'}{' '}
            {connection.data.webhookSecretSet
              ? 'A webhook secret is set.'
              : 'No webhook secret is set: webhooks are refused.'}
          </p>
          <p className="mt-2 text-sm text-slate-600">
            Prolific&apos;s webhook subscription calls <code>{connection.data.webhookPath}</code> on this server&apos;s
            public address. Secrets are stored encrypted and are never shown again.
          </p>
          <form noValidate onSubmit={submit} className="mt-4 space-y-3">
            <TextField
              label="API token"
              name="prolific-api-token"
              type="password"
              autoComplete="off"
              value={apiToken}
              onChange={(e) => setApiToken(e.target.value)}
            />
            <TextField
              label="Webhook secret"
              name="prolific-webhook-secret"
              type="password"
              autoComplete="off"
              value={webhookSecret}
              onChange={(e) => setWebhookSecret(e.target.value)}
            />
            {save.isError && (
              <Alert>
                <p>{serverMessage(save.error, 'Could not save the Prolific connection.')}</p>
              </Alert>
            )}
            <div className="flex flex-wrap gap-3">
              <Button type="submit" disabled={save.isPending || (!apiToken.trim() && !webhookSecret.trim())}>
                Save
              </Button>
              <Button
                variant="secondary"
                onClick={() => test.mutate()}
                disabled={test.isPending || !connection.data.tokenSet}
              >
                Test connection
              </Button>
              <Button
                variant="danger"
                onClick={() => clear.mutate()}
                disabled={clear.isPending || (!connection.data.tokenSet && !connection.data.webhookSecretSet)}
              >
                Clear
              </Button>
            </div>
          </form>
          {tested && (
            <Alert tone="success" className="mt-3">
              <p>
                Prolific accepted the token: account {tested.accountId}
                {tested.email ? ` (${tested.email})` : ''}.
              </p>
            </Alert>
          )}
          {test.isError && (
            <Alert className="mt-3">
              <p>{serverMessage(test.error, 'Prolific could not be reached.')}</p>
            </Alert>
          )}
          {clear.isError && (
            <Alert className="mt-3">
              <p>{serverMessage(clear.error, 'Could not clear the Prolific connection.')}</p>
            </Alert>
          )}
        </>
      )}
    </Card>
  );
}
