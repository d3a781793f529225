import { endpoints, PROLIFIC_DEVICES, type ProlificChecklist, type ProlificLaunchBody } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Modal } from '../../../components/Modal';
import { Spinner } from '../../../components/Spinner';
import { TextField } from '../../../components/TextField';
import { api } from '../../../lib/api';
import { serverMessage } from '../format';
import { ProlificChecklistList, ProlificSyncSummary } from './ProlificChecklistList';

type Choice = 'completed:AUTOMATICALLY_APPROVE' | 'completed:MANUALLY_REVIEW' | 'screened_out:MANUALLY_REVIEW';
const CHOICES: { value: Choice; label: string }[] = [
  { value: 'completed:MANUALLY_REVIEW', label: 'Completed: review manually' },
  { value: 'completed:AUTOMATICALLY_APPROVE', label: 'Completed: approve automatically' },
  { value: 'screened_out:MANUALLY_REVIEW', label: 'Screened out: review manually' },
];
const DEVICE_LABELS: Record<(typeof PROLIFIC_DEVICES)[number], string> = {
  desktop: 'Desktop',
  mobile: 'Mobile',
  tablet: 'Tablet',
};

/**
 * Launch on Prolific (docs/decisions/0090-prolific-launch.md): a draft study made from the experiment (places,
 * reward, time, devices, what Prolific does with each pathway's code), the server's checklist, publishing after a
 * confirmation once every item passes, and reading the submissions back from Prolific.
 */
export function ProlificLaunchCard({ experimentId }: { experimentId: string }) {
  const queryClient = useQueryClient();
  const key = ['prolific-checklist', experimentId];
  const checklist = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api(endpoints.prolificLaunch.checklist, { params: { id: experimentId }, signal }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const [confirming, setConfirming] = useState(false);
  const publish = useMutation({
    mutationFn: () => api(endpoints.prolificLaunch.publish, { params: { id: experimentId } }),
    onSettled: () => {
      setConfirming(false);
      void refresh();
      void queryClient.invalidateQueries({ queryKey: ['prolific-study', experimentId] });
    },
  });
  const sync = useMutation({
    mutationFn: () => api(endpoints.prolificLaunch.sync, { params: { id: experimentId } }),
  });

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Launch on Prolific</h2>
      {checklist.isPending ? (
        <Spinner label="Loading..." />
      ) : checklist.isError ? (
        <Alert>
          <p>{serverMessage(checklist.error, 'Failed to load the Prolific checklist.')}</p>
        </Alert>
      ) : (
        <>
          <LaunchState checklist={checklist.data} />
          {checklist.data.launch.state === null && (
            <LaunchForm experimentId={experimentId} checklist={checklist.data} onLaunched={refresh} />
          )}
          <h3 className="mt-5 font-semibold text-slate-900">Checklist before publishing</h3>
          <ProlificChecklistList checklist={checklist.data} />
          <div className="mt-4 flex flex-wrap gap-3">
            {checklist.data.launch.state !== 'published' && (
              <Button onClick={() => setConfirming(true)} disabled={!checklist.data.ok || publish.isPending}>
                Publish on Prolific
              </Button>
            )}
            <Button variant="secondary" onClick={() => void checklist.refetch()} disabled={checklist.isFetching}>
              Check again
            </Button>
            {checklist.data.launch.studyId && (
              <Button variant="secondary" onClick={() => sync.mutate()} disabled={sync.isPending}>
                Refresh from Prolific
              </Button>
            )}
          </div>
          {publish.isError && (
            <Alert className="mt-3">
              <p>{serverMessage(publish.error, 'Could not publish on Prolific.')}</p>
            </Alert>
          )}
          {sync.isError && (
            <Alert className="mt-3">
              <p>{serverMessage(sync.error, 'Could not read the submissions from Prolific.')}</p>
            </Alert>
          )}
          {sync.isSuccess && <ProlificSyncSummary sync={sync.data} />}
          <Modal
            open={confirming}
            onOpenChange={setConfirming}
            title="Publish on Prolific?"
            description="Prolific starts recruiting at once and reserves the reward and fees from your balance. A published study cannot be unpublished from here."
          >
            <div className="flex flex-wrap justify-end gap-3">
              <Button variant="secondary" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button onClick={() => publish.mutate()} disabled={publish.isPending}>
                Publish now
              </Button>
            </div>
          </Modal>
        </>
      )}
    </Card>
  );
}

function LaunchState({ checklist }: { checklist: ProlificChecklist }) {
  const { launch } = checklist;
  const text =
    launch.state === null
      ? 'Not launched yet: the form below creates a draft study on Prolific (nothing is public until you publish).'
      : launch.state === 'published'
        ? `Published on Prolific as study ${launch.studyId ?? ''}.`
        : launch.state === 'draft'
          ? `Draft study ${launch.studyId ?? ''} created on Prolific${launch.credentials > 0 ? ` with ${launch.credentials} study logins in its credentials pool` : ''}.`
          : 'A launch is under way.';
  return (
    <p className="mt-2 break-words text-slate-700" data-testid="prolific-launch-state">
      {text}
    </p>
  );
}

function LaunchForm(props: { experimentId: string; checklist: ProlificChecklist; onLaunched: () => void }) {
  const { experimentId, checklist, onLaunched } = props;
  const [places, setPlaces] = useState('');
  const [reward, setReward] = useState('');
  const [minutes, setMinutes] = useState('');
  const [workspaceId, setWorkspaceId] = useState('');
  const [devices, setDevices] = useState<Set<(typeof PROLIFIC_DEVICES)[number]>>(new Set(['desktop']));
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const launch = useMutation({
    mutationFn: (body: ProlificLaunchBody) =>
      api(endpoints.prolificLaunch.launch, { params: { id: experimentId }, body }),
    onSuccess: onLaunched,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    launch.mutate({
      places: Number(places),
      rewardMinor: Number(reward),
      estimatedMinutes: Number(minutes),
      devices: PROLIFIC_DEVICES.filter((d) => devices.has(d)),
      pathways: checklist.pathways.map((p) => {
        const [outcome, action] = (choices[p.key] ?? 'completed:MANUALLY_REVIEW').split(':') as [
          'completed' | 'screened_out',
          'AUTOMATICALLY_APPROVE' | 'MANUALLY_REVIEW',
        ];
        return { pathway: p.key, outcome, action };
      }),
      ...(checklist.usesLogins ? { workspaceId: workspaceId.trim() } : {}),
    });
  }

  return (
    <form noValidate onSubmit={submit} className="mt-4 space-y-3" aria-label="Launch on Prolific">
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          label="Places"
          name="places"
          inputMode="numeric"
          value={places}
          onChange={(e) => setPlaces(e.target.value)}
        />
        <TextField
          label="Reward (pence or cents)"
          name="reward"
          inputMode="numeric"
          value={reward}
          onChange={(e) => setReward(e.target.value)}
        />
        <TextField
          label="Estimated minutes"
          name="minutes"
          inputMode="numeric"
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
        />
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Devices allowed</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {PROLIFIC_DEVICES.map((device) => (
            <label key={device} className="flex min-h-11 items-center gap-2 text-slate-900">
              <input
                type="checkbox"
                className="h-5 w-5"
                checked={devices.has(device)}
                onChange={(e) => {
                  const next = new Set(devices);
                  if (e.target.checked) next.add(device);
                  else next.delete(device);
                  setDevices(next);
                }}
              />
              {DEVICE_LABELS[device]}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">What Prolific does with each pathway&apos;s code</legend>
        {checklist.pathways.map((p) => (
          <label key={p.key} className="flex min-w-0 flex-col text-sm font-medium text-slate-900">
            {p.label} ({p.code ?? 'no code yet'})
            <select
              className="mt-1 min-h-11 w-full max-w-md rounded-lg border border-slate-300 px-3"
              value={choices[p.key] ?? 'completed:MANUALLY_REVIEW'}
              onChange={(e) => setChoices({ ...choices, [p.key]: e.target.value as Choice })}
            >
              {CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
        ))}
      </fieldset>
      {checklist.usesLogins && (
        <TextField
          label="Prolific workspace ID"
          name="workspace"
          autoComplete="off"
          hint="Participants join with study logins: fresh logins (50% more than places) go into a credentials pool in this workspace."
          value={workspaceId}
          onChange={(e) => setWorkspaceId(e.target.value)}
        />
      )}
      {launch.isError && (
        <Alert>
          <p>{serverMessage(launch.error, 'Could not create the study on Prolific.')}</p>
        </Alert>
      )}
      <Button type="submit" disabled={launch.isPending}>
        Launch (create draft)
      </Button>
    </form>
  );
}
