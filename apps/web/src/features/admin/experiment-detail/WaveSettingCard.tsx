import { endpoints } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { api } from '../../../lib/api';
import { useExperiments } from '../experiments/use-experiments';
import { serverMessage } from '../format';
import { ParticipantGroupPanel } from './ParticipantGroupPanel';

/**
 * Follow-up waves (docs/decisions/0091): which experiment this one follows (its wave 1), so that its landing admits
 * only Prolific ids that finished wave 1 and its data package joins the waves; and, for an earlier wave, a Prolific
 * participant group of its completers to show the next wave to. Admins who may edit the experiment.
 */
export function WaveSettingCard({ experimentId }: { experimentId: string }) {
  const queryClient = useQueryClient();
  const key = ['wave', experimentId];
  const selectId = useId();
  const setting = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api(endpoints.waves.setting, { params: { id: experimentId }, signal }),
  });
  const experiments = useExperiments();
  const [choice, setChoice] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (follows: string | null) =>
      api(endpoints.waves.setSetting, { params: { id: experimentId }, body: { follows_experiment_id: follows } }),
    onSuccess: (next) => {
      queryClient.setQueryData(key, next);
      setChoice(null);
    },
  });

  if (setting.isPending) return <Card>{<Spinner label="Loading the waves..." />}</Card>;
  if (setting.isError) {
    return (
      <Card>
        <Alert>{serverMessage(setting.error, 'Failed to load the follow-up waves.')}</Alert>
      </Card>
    );
  }
  const { follows, followedBy, locked } = setting.data;
  const selected = choice ?? follows?.id ?? '';
  const others = (experiments.data ?? []).filter((e) => e.id !== experimentId);
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Follow-up waves</h2>
      <p className="mt-2 text-sm text-slate-700">
        A follow-up wave names the experiment it follows. Its landing then admits only Prolific IDs that finished that
        wave (anyone else is told the study is for earlier participants and to return it), and its data package has a
        waves.csv that joins the waves by Prolific ID.
      </p>
      <p className="mt-3 font-medium text-slate-900" data-testid="wave-follows">
        {follows ? `This experiment follows "${follows.name}".` : 'This experiment follows no other: anyone may join.'}
      </p>
      {followedBy.length > 0 && (
        <p className="mt-1 text-sm text-slate-700" data-testid="wave-followed-by">
          Followed by: {followedBy.map((e) => `"${e.name}"`).join(', ')}.
        </p>
      )}
      {locked ? (
        <p className="mt-3 text-sm text-slate-700">
          Participants have joined, so the wave it follows can no longer change: every participant was admitted by the
          same rule.
        </p>
      ) : (
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <div className="w-full min-w-0 max-w-md">
            <label htmlFor={selectId} className="block text-sm font-medium text-slate-900">
              Follows
            </label>
            <select
              id={selectId}
              className="mt-1 min-h-11 w-full rounded-lg border border-slate-300 px-3"
              value={selected}
              onChange={(e) => setChoice(e.target.value)}
            >
              <option value="">No other experiment (a first wave)</option>
              {others.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                </option>
              ))}
            </select>
          </div>
          <Button
            onClick={() => save.mutate(selected === '' ? null : selected)}
            disabled={save.isPending || selected === (follows?.id ?? '')}
          >
            Save
          </Button>
        </div>
      )}
      {save.isError && <Alert className="mt-3">{serverMessage(save.error, 'Could not change the wave.')}</Alert>}
      {save.isSuccess && (
        <p role="status" className="mt-3 text-sm text-slate-700">
          Saved.
        </p>
      )}
      <ParticipantGroupPanel experimentId={experimentId} />
    </Card>
  );
}
