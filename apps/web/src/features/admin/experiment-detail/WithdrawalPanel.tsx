import type { WithdrawReply } from '@studychat/contracts/web';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Modal } from '../../../components/Modal';
import { TextField } from '../../../components/TextField';
import { errorText } from '../format';
import { useWithdraw } from './use-experiment-detail';

/** What a completed withdrawal deleted, in words. */
export function withdrawalSummary(reply: WithdrawReply): string {
  const d = reply.deleted;
  return `Deleted the data of Prolific id ${reply.prolificId}: ${d.participants} participation(s), ${d.messages} chat message(s), ${d.surveyResponses} survey response(s), ${d.sectionRecords} section record(s), ${d.events} event(s). The audit log keeps a record of this withdrawal.`;
}

/**
 * 'Withdraw a Participant' (admins): deletes everything one Prolific id left in this experiment, after a
 * confirmation naming the id. Cannot be undone; the audit log records who did it.
 */
export function WithdrawalPanel({ experimentId }: { experimentId: string }) {
  const withdraw = useWithdraw(experimentId);
  const [pid, setPid] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  function ask(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    if (pid.trim() === '') {
      setError('Enter the Prolific id of the participant who withdrew.');
      return;
    }
    setError(null);
    setConfirming(true);
  }

  function confirm() {
    withdraw.mutate(pid.trim(), {
      onSuccess: (reply) => {
        setDone(withdrawalSummary(reply));
        setPid('');
        setConfirming(false);
      },
      onError: (e) => {
        setError(errorText(e));
        setConfirming(false);
      },
    });
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Withdraw a Participant</h2>
      <p className="mt-1 text-sm text-slate-600">
        Deletes every answer, chat message, page time and event of one Prolific id in this experiment. This cannot be
        undone.
      </p>
      <form noValidate onSubmit={ask} className="mt-3 flex flex-wrap items-end gap-3">
        <TextField
          label="Prolific id"
          value={pid}
          onChange={(e) => setPid(e.target.value)}
          error={error ?? undefined}
          autoComplete="off"
        />
        <Button type="submit" variant="danger">
          Delete data...
        </Button>
      </form>
      {done && (
        <p role="status" className="mt-2 text-sm text-green-700">
          {done}
        </p>
      )}
      <Modal
        open={confirming}
        onOpenChange={(open) => !withdraw.isPending && setConfirming(open)}
        title="Delete this participant's data?"
        description={`All data of Prolific id ${pid.trim()} in this experiment will be deleted for good.`}
      >
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={withdraw.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} disabled={withdraw.isPending}>
            {withdraw.isPending ? 'Deleting...' : 'Delete data'}
          </Button>
        </div>
      </Modal>
    </Card>
  );
}
