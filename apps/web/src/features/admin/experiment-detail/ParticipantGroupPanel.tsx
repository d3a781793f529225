import { endpoints } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/TextField';
import { api } from '../../../lib/api';
import { serverMessage } from '../format';

/**
 * A Prolific participant group of this experiment's completers (docs/decisions/0091): made once from the chosen
 * pathways, then added to (those already in it are skipped), so a follow-up study on Prolific can use it as its
 * allowlist. The pathways are the launch checklist's, so they are the pinned study's own.
 */
export function ParticipantGroupPanel({ experimentId }: { experimentId: string }) {
  const queryClient = useQueryClient();
  const key = ['participant-group', experimentId];
  const group = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api(endpoints.waves.group, { params: { id: experimentId }, signal }),
  });
  const checklist = useQuery({
    queryKey: ['prolific-checklist', experimentId],
    queryFn: ({ signal }) => api(endpoints.prolificLaunch.checklist, { params: { id: experimentId }, signal }),
  });
  const [name, setName] = useState('');
  const [workspace, setWorkspace] = useState('');
  const [pathways, setPathways] = useState<string[]>([]);
  const make = useMutation({
    mutationFn: () =>
      api(endpoints.waves.makeGroup, {
        params: { id: experimentId },
        body: { name: name.trim(), workspace_id: workspace.trim(), pathways },
      }),
    onSuccess: (result) => queryClient.setQueryData(key, { group: result.group }),
  });
  const existing = group.data?.group ?? null;
  const ready = (existing !== null || (name.trim() !== '' && workspace.trim() !== '')) && pathways.length > 0;
  const toggle = (key: string, on: boolean) =>
    setPathways((current) => (on ? [...current, key] : current.filter((p) => p !== key)));

  return (
    <section className="mt-6 border-t border-slate-200 pt-4" aria-labelledby={`${experimentId}-group`}>
      <h3 id={`${experimentId}-group`} className="font-semibold text-slate-900">
        Prolific participant group of the completers
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        For the next wave: a group on Prolific of the Prolific IDs that finished this experiment on the chosen pathways
        (never a test run, never a withdrawn participant). Use it as the next study&apos;s allowlist on Prolific.
      </p>
      {existing ? (
        <p className="mt-2 text-sm text-slate-900" data-testid="participant-group">
          {existing.groupId
            ? `Group "${existing.name}" (${existing.groupId}): ${existing.participants} participant${existing.participants === 1 ? '' : 's'} sent.`
            : `Group "${existing.name}" is being made.`}
        </p>
      ) : (
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <TextField label="Group name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          <TextField
            label="Prolific workspace ID"
            hint="Prolific keeps a group in a workspace: its ID is in the workspace's address on Prolific."
            value={workspace}
            maxLength={64}
            onChange={(e) => setWorkspace(e.target.value)}
          />
        </div>
      )}
      <fieldset className="mt-3">
        <legend className="text-sm font-medium text-slate-900">Completers of</legend>
        {(checklist.data?.pathways ?? []).map((p) => (
          <label key={p.key} className="mt-1 flex min-h-11 items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="size-5"
              checked={pathways.includes(p.key)}
              onChange={(e) => toggle(p.key, e.target.checked)}
            />
            {p.label} ({p.key})
          </label>
        ))}
      </fieldset>
      <Button className="mt-3" onClick={() => make.mutate()} disabled={!ready || make.isPending}>
        {existing ? 'Add the completers to the group' : 'Make the participant group'}
      </Button>
      {make.isError && (
        <Alert className="mt-3">{serverMessage(make.error, 'Could not make the participant group.')}</Alert>
      )}
      {make.isSuccess && (
        <p role="status" className="mt-3 text-sm text-slate-700">
          {make.data.added === 0
            ? 'Everyone chosen was in the group already.'
            : `Sent ${make.data.added} new participant${make.data.added === 1 ? '' : 's'} to the group on Prolific.`}
        </p>
      )}
    </section>
  );
}
