import { endpoints } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TextField } from '../../../components/TextField';
import { api } from '../../../lib/api';
import { serverMessage } from '../format';

/**
 * The Prolific study this experiment runs as (admins, docs/decisions/0083-prolific-api.md): once linked, and with
 * a Prolific token set on the Security page, the server completes each participant's submission with their
 * pathway's code, and Prolific's webhooks show each submission's status on the monitor.
 */
export function ProlificStudyCard({ experimentId }: { experimentId: string }) {
  const queryClient = useQueryClient();
  const key = ['prolific-study', experimentId];
  const link = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api(endpoints.prolific.studyLink, { params: { id: experimentId }, signal }),
  });
  const [studyId, setStudyId] = useState('');
  const save = useMutation({
    mutationFn: (next: string | null) =>
      api(endpoints.prolific.setStudyLink, { params: { id: experimentId }, body: { studyId: next } }),
    onSuccess: (next) => {
      queryClient.setQueryData(key, next);
      setStudyId('');
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate(studyId.trim());
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Prolific study</h2>
      {link.isPending ? (
        <Spinner label="Loading..." />
      ) : link.isError ? (
        <Alert>
          <p>{serverMessage(link.error, 'Failed to load the linked Prolific study.')}</p>
        </Alert>
      ) : (
        <>
          <p className="mt-2 text-slate-700" data-testid="prolific-study">
            {link.data.studyId
              ? `Linked to Prolific study ${link.data.studyId}: the server completes each submission with the participant's pathway code.`
              : 'Not linked: the participants complete on Prolific only through the redirect link.'}
          </p>
          <form noValidate onSubmit={submit} className="mt-4 space-y-3">
            <TextField
              label="Prolific study ID"
              name="prolific-study-id"
              autoComplete="off"
              value={studyId}
              onChange={(e) => setStudyId(e.target.value)}
            />
            {save.isError && (
              <Alert>
                <p>{serverMessage(save.error, 'Could not link the Prolific study.')}</p>
              </Alert>
            )}
            <div className="flex flex-wrap gap-3">
              <Button type="submit" disabled={save.isPending || studyId.trim() === ''}>
                Link
              </Button>
              {link.data.studyId && (
                <Button variant="secondary" onClick={() => save.mutate(null)} disabled={save.isPending}>
                  Unlink
                </Button>
              )}
            </div>
          </form>
        </>
      )}
    </Card>
  );
}
