import { endpoints } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { api } from '../../../lib/api';
import { serverMessage } from '../format';

/**
 * Joining by Prolific's study link alone (admins, docs/decisions/0086-prolific-link-join.md): off, participants log
 * in with a study login (the default); on, the link's Prolific ids start or resume their session with no login.
 */
export function ProlificLinkJoinCard({ experimentId }: { experimentId: string }) {
  const queryClient = useQueryClient();
  const key = ['prolific-link-join', experimentId];
  const setting = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api(endpoints.prolificJoin.setting, { params: { id: experimentId }, signal }),
  });
  const save = useMutation({
    mutationFn: (enabled: boolean) =>
      api(endpoints.prolificJoin.setSetting, { params: { id: experimentId }, body: { enabled } }),
    onSuccess: (next) => queryClient.setQueryData(key, next),
  });

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">How participants join from Prolific</h2>
      {setting.isPending ? (
        <Spinner label="Loading..." />
      ) : setting.isError ? (
        <Alert>
          <p>{serverMessage(setting.error, 'Failed to load how participants join.')}</p>
        </Alert>
      ) : (
        <>
          <p className="mt-2 font-medium text-slate-900" data-testid="prolific-link-join">
            {setting.data.enabled
              ? 'By the study link alone: no study login is needed.'
              : 'With a study login (the default): each participant types the study email and password you gave them.'}
          </p>
          <div className="mt-3 space-y-2 text-sm text-slate-700">
            <p>
              <strong>With a study login</strong>, only someone holding one of your logins can take part, and a login
              works for one Prolific ID. It costs a step: participants must copy the login from Prolific, and some give
              up there.
            </p>
            <p>
              <strong>By the study link alone</strong>, Prolific's link (with PROLIFIC_PID, STUDY_ID and SESSION_ID)
              starts the study at once, as most Prolific studies do. Each Prolific ID takes part once, and comes back
              (on any device) only with the same SESSION_ID it started with; anything else is refused.
            </p>
            <p>
              The risk: the link itself is the key. Anyone who copies a participant's whole link can continue their
              session, and anyone who learns the study link can start with a made-up Prolific ID. Such a made-up ID
              never appears among your Prolific submissions, so it is not paid; link the Prolific study above so that
              only its STUDY_ID is accepted, and check submissions before approving.
            </p>
          </div>
          {save.isError && (
            <Alert className="mt-3">
              <p>{serverMessage(save.error, 'Could not change how participants join.')}</p>
            </Alert>
          )}
          <div className="mt-4">
            <Button
              variant={setting.data.enabled ? 'secondary' : 'primary'}
              onClick={() => save.mutate(!setting.data.enabled)}
              disabled={save.isPending}
            >
              {setting.data.enabled ? 'Require a study login again' : 'Let participants join by the link alone'}
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}
