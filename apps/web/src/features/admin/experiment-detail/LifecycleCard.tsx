import { EXPERIMENT_TRANSITIONS, type Experiment, type ExperimentState } from '@studychat/contracts/web';
import { useState } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Modal } from '../../../components/Modal';
import { useNavigate } from '../../../lib/router';
import { ExperimentStateBadge, STATE_INFO } from '../ExperimentStateBadge';
import { errorText } from '../format';
import { useDeleteExperiment, useSetExperimentState } from './use-experiment-detail';

/** The button that moves an experiment to each state. */
const ACTION: Record<ExperimentState, string> = {
  draft: 'Back to draft',
  open: 'Open',
  paused: 'Pause',
  closed: 'Close',
  archived: 'Archive',
};

/** Changes that ask first: what they do, in words. */
const CONFIRM: Partial<Record<ExperimentState, { title: string; body: string }>> = {
  closed: {
    title: 'Close this experiment?',
    body: 'New participants will be told the study is closed and cannot join. Participants already in can finish. You can reopen it later.',
  },
  archived: {
    title: 'Archive this experiment?',
    body: 'It will be hidden from the experiments list (shown with "Show archived") and nobody can join. Its data and exports are kept.',
  },
};

type Pending = { kind: 'state'; to: ExperimentState } | { kind: 'delete' };

/**
 * 'Status' (docs/decisions/0077): the experiment's state, a button per change the lifecycle allows, confirmations for
 * close, archive and delete (a draft nobody joined), and the server's refusal in words.
 */
export function LifecycleCard({ experiment, editable }: { experiment: Experiment; editable: boolean }) {
  const setState = useSetExperimentState(experiment.id);
  const remove = useDeleteExperiment(experiment.id);
  const navigate = useNavigate();
  const [pending, setPending] = useState<Pending | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = setState.isPending || remove.isPending;

  function change(to: ExperimentState) {
    setError(null);
    setState.mutate(to, {
      onSuccess: () => setPending(null),
      onError: (e) => {
        setError(errorText(e));
        setPending(null);
      },
    });
  }

  function ask(to: ExperimentState) {
    if (CONFIRM[to]) setPending({ kind: 'state', to });
    else change(to);
  }

  function confirmDelete() {
    setError(null);
    remove.mutate(undefined, {
      onSuccess: () => navigate('/admin/experiments', { replace: true }),
      onError: (e) => {
        setError(errorText(e));
        setPending(null);
      },
    });
  }

  const confirm = pending?.kind === 'state' ? CONFIRM[pending.to] : undefined;
  return (
    <Card>
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-lg font-semibold text-slate-900">Status</h2>
        <ExperimentStateBadge state={experiment.state} />
      </div>
      <p className="mt-1 text-sm text-slate-600">{STATE_INFO[experiment.state].meaning}</p>
      {editable && (
        <div className="mt-3 flex flex-wrap gap-3">
          {EXPERIMENT_TRANSITIONS[experiment.state].map((to) => (
            <Button
              key={to}
              variant={to === 'closed' || to === 'archived' ? 'danger' : 'secondary'}
              disabled={busy}
              onClick={() => ask(to)}
            >
              {ACTION[to]}
            </Button>
          ))}
          {experiment.state === 'draft' && (
            <Button variant="danger" disabled={busy} onClick={() => setPending({ kind: 'delete' })}>
              Delete experiment...
            </Button>
          )}
        </div>
      )}
      {error && (
        <Alert className="mt-3">
          <p>{error}</p>
        </Alert>
      )}
      <Modal
        open={pending !== null}
        onOpenChange={(open) => !busy && !open && setPending(null)}
        title={pending?.kind === 'delete' ? 'Delete this experiment?' : (confirm?.title ?? '')}
        description={
          pending?.kind === 'delete'
            ? `"${experiment.name}" will be deleted for good, with its completion codes, its preview links and every study login generated for it (those accounts too). Only a draft nobody joined can be deleted.`
            : confirm?.body
        }
      >
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setPending(null)} disabled={busy}>
            Cancel
          </Button>
          {pending?.kind === 'delete' ? (
            <Button variant="danger" onClick={confirmDelete} disabled={busy}>
              {remove.isPending ? 'Deleting...' : 'Delete experiment'}
            </Button>
          ) : (
            pending && (
              <Button variant="danger" onClick={() => change(pending.to)} disabled={busy}>
                {setState.isPending ? 'Saving...' : `${ACTION[pending.to]} experiment`}
              </Button>
            )
          )}
        </div>
      </Modal>
    </Card>
  );
}
