import type { ExperimentMembers, ExperimentRole } from '@studychat/contracts/web';
import { endpoints } from '@studychat/contracts/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TextField } from '../../../components/TextField';
import { api } from '../../../lib/api';
import { useExperimentMembers } from '../experiment-role';
import { serverMessage } from '../format';

const ROLE_LABEL: Record<ExperimentRole, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };
const SELECT = 'min-h-11 rounded-lg border border-slate-300 bg-white px-2 py-1 text-base';

/**
 * The people on this experiment (docs/decisions/0087-experiment-members.md): its owner manages them, everyone
 * else who sees the experiment reads them. The server decides who may do what; this card only offers it.
 */
export function PeopleCard({ experimentId }: { experimentId: string }) {
  const queryClient = useQueryClient();
  const key = ['experiment-members', experimentId];
  const people = useExperimentMembers(experimentId);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<ExperimentRole>('viewer');
  const [notice, setNotice] = useState<string | null>(null);
  const roleId = useId();
  const saved = (next: ExperimentMembers, message: string) => {
    queryClient.setQueryData(key, next);
    setNotice(message);
  };
  const add = useMutation({
    mutationFn: () => api(endpoints.members.add, { params: { id: experimentId }, body: { email: email.trim(), role } }),
    onSuccess: (next) => {
      saved(next, `${email.trim()} was added as ${ROLE_LABEL[role].toLowerCase()}.`);
      setEmail('');
    },
  });
  const change = useMutation({
    mutationFn: (input: { userId: string; role: ExperimentRole }) =>
      api(endpoints.members.setRole, {
        params: { id: experimentId, userId: input.userId },
        body: { role: input.role },
      }),
    onSuccess: (next) => saved(next, 'The role was changed.'),
  });
  const remove = useMutation({
    mutationFn: (input: { userId: string; email: string }) =>
      api(endpoints.members.remove, { params: { id: experimentId, userId: input.userId } }),
    onSuccess: async (_ok, input) => {
      setNotice(`${input.email} was removed.`);
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const busy = add.isPending || change.isPending || remove.isPending;
  const failed = add.error ?? change.error ?? remove.error;

  function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    add.mutate();
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">People on this experiment</h2>
      {people.isPending ? (
        <Spinner label="Loading..." />
      ) : people.isError ? (
        <Alert>
          <p>{serverMessage(people.error, 'Failed to load the people on this experiment.')}</p>
        </Alert>
      ) : (
        <>
          <p className="mt-2 text-slate-700" data-testid="people-summary">
            {people.data.lab_wide
              ? 'Lab-wide: every admin and analyst sees this experiment. Adding someone makes you its owner and the experiment visible only to its people.'
              : `Only the people below see this experiment. You are ${ROLE_LABEL[people.data.your_role].toLowerCase()}.`}
          </p>
          {people.data.members.length > 0 && (
            <ul className="mt-3 divide-y divide-slate-200" aria-label="People on this experiment">
              {people.data.members.map((member) => (
                <li key={member.user_id} className="flex flex-wrap items-center gap-3 py-2" data-testid="member-row">
                  <span className="min-w-0 flex-1 break-all text-slate-900">
                    {member.email}
                    {member.account_role === 'analyst' && (
                      <span className="ml-2 text-sm text-slate-600">(analyst: views only)</span>
                    )}
                  </span>
                  {people.data.your_role === 'owner' ? (
                    <>
                      <select
                        aria-label={`Role of ${member.email}`}
                        value={member.role}
                        disabled={busy}
                        onChange={(e) => {
                          setNotice(null);
                          change.mutate({ userId: member.user_id, role: e.target.value as ExperimentRole });
                        }}
                        className={SELECT}
                      >
                        <option value="owner">Owner</option>
                        <option value="editor">Editor</option>
                        <option value="viewer">Viewer</option>
                      </select>
                      <Button
                        variant="danger"
                        disabled={busy}
                        onClick={() => {
                          setNotice(null);
                          remove.mutate({ userId: member.user_id, email: member.email });
                        }}
                        aria-label={`Remove ${member.email}`}
                      >
                        Remove
                      </Button>
                    </>
                  ) : (
                    <span className="text-slate-700">{ROLE_LABEL[member.role]}</span>
                  )}
                </li>
              ))}
            </ul>
          )}
          {failed && (
            <Alert>
              <p>{serverMessage(failed, 'The change was not made.')}</p>
            </Alert>
          )}
          {notice && (
            <p role="status" className="mt-3 text-slate-700">
              {notice}
            </p>
          )}
          {people.data.your_role === 'owner' && (
            <form noValidate onSubmit={submit} className="mt-4 space-y-3">
              <TextField
                label="Email of an admin or analyst"
                name="member-email"
                type="email"
                autoComplete="off"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
              <div>
                <label htmlFor={roleId} className="block font-medium text-slate-800">
                  Role
                </label>
                <select
                  id={roleId}
                  value={role}
                  onChange={(e) => setRole(e.target.value as ExperimentRole)}
                  className={`mt-1 ${SELECT}`}
                >
                  <option value="viewer">Viewer: reads, monitors, exports</option>
                  <option value="editor">Editor: also changes the set-up</option>
                  <option value="owner">Owner: also people, state, deletion</option>
                </select>
              </div>
              <Button type="submit" disabled={busy || email.trim() === ''}>
                Add
              </Button>
            </form>
          )}
        </>
      )}
    </Card>
  );
}
