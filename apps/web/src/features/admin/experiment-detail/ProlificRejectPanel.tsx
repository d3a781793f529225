import {
  endpoints,
  PROLIFIC_REJECT_MESSAGE_MIN,
  PROLIFIC_REJECTION_CATEGORIES,
  PROLIFIC_REJECTION_LABELS,
  type ProlificRejectionCategory,
} from '@studychat/contracts/web';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { ApiError, api } from '../../../lib/api';
import { serverMessage } from '../format';
import { TextArea } from '../TextArea';

/** The Prolific ids typed or pasted: one per line, or separated by commas or spaces; each once. */
export function pidsOf(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter((s) => s !== ''))];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Rejecting on Prolific (docs/decisions/0089): the Prolific ids, one of Prolific's categories, a message of at least
 * 100 characters (counted as it is typed), and a confirmation that names how many participants it rejects.
 */
export function ProlificRejectPanel({ experimentId }: { experimentId: string }) {
  const [ids, setIds] = useState('');
  const [category, setCategory] = useState<ProlificRejectionCategory | ''>('');
  const [message, setMessage] = useState('');
  const [confirming, setConfirming] = useState(false);
  const pids = pidsOf(ids);
  const length = message.trim().length;
  const ready = pids.length > 0 && category !== '' && length >= PROLIFIC_REJECT_MESSAGE_MIN;
  const reject = useMutation({
    mutationFn: () =>
      api(endpoints.prolificPay.reject, {
        params: { id: experimentId },
        body: {
          prolificPids: pids,
          category: category as ProlificRejectionCategory,
          message: message.trim(),
          confirm: true,
        },
      }),
    onSettled: () => setConfirming(false),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready) setConfirming(true);
  };
  const issues = reject.error instanceof ApiError ? (reject.error.details.issues ?? []) : [];

  return (
    <section className="mt-6 border-t border-slate-200 pt-4" aria-labelledby="prolific-reject-heading">
      <h3 id="prolific-reject-heading" className="font-semibold text-slate-900">
        Reject submissions
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        Only submissions awaiting review can be rejected. Prolific asks for one of its reasons and a message to the
        participant of at least {PROLIFIC_REJECT_MESSAGE_MIN} characters; a rejection cannot be undone here.
      </p>
      <form className="mt-3 space-y-3" onSubmit={submit}>
        <TextArea
          label="Prolific ids to reject (one per line)"
          value={ids}
          onChange={(e) => setIds(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        <label className="flex flex-col text-sm font-medium text-slate-900">
          Reason (Prolific&apos;s category)
          <select
            className="mt-1 min-h-11 rounded-lg border border-slate-300 px-3"
            value={category}
            onChange={(e) => setCategory(e.target.value as ProlificRejectionCategory | '')}
          >
            <option value="">Choose a reason…</option>
            {PROLIFIC_REJECTION_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {PROLIFIC_REJECTION_LABELS[c]}
              </option>
            ))}
          </select>
        </label>
        <div>
          <TextArea
            label="Message to the participant"
            value={message}
            rows={4}
            maxLength={2000}
            onChange={(e) => setMessage(e.target.value)}
            aria-describedby="prolific-reject-count"
          />
          <p
            id="prolific-reject-count"
            className={`mt-1 text-sm ${length >= PROLIFIC_REJECT_MESSAGE_MIN ? 'text-green-700' : 'text-slate-600'}`}
            aria-live="polite"
            data-testid="reject-count"
          >
            {length} / {PROLIFIC_REJECT_MESSAGE_MIN} characters
            {length < PROLIFIC_REJECT_MESSAGE_MIN ? ` (${PROLIFIC_REJECT_MESSAGE_MIN - length} more needed)` : ''}
          </p>
        </div>
        <Button type="submit" variant="danger" disabled={!ready || reject.isPending}>
          Reject…
        </Button>
      </form>
      {reject.isSuccess && (
        <div role="status" className="mt-3 text-sm text-slate-700" data-testid="prolific-rejected">
          <p>Rejected {plural(reject.data.rejected.length, 'submission')} on Prolific.</p>
          {reject.data.failed.length > 0 && (
            <ul className="mt-1 list-disc pl-5 text-red-700">
              {reject.data.failed.map((f) => (
                <li key={f.prolificPid}>
                  {f.prolificPid}: {f.error}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {reject.isError && (
        <Alert className="mt-3">
          <p>{serverMessage(reject.error, 'Could not reject on Prolific.')}</p>
          {issues.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {issues.map((i) => (
                <li key={i.path}>
                  {i.path} {i.message}
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      <Modal
        open={confirming}
        onOpenChange={(open) => !reject.isPending && setConfirming(open)}
        title={`Reject ${plural(pids.length, 'participant')} on Prolific?`}
        description={
          category === ''
            ? undefined
            : `Reason: ${PROLIFIC_REJECTION_LABELS[category]}. They will not be paid, and Prolific shows them your message.`
        }
      >
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={reject.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => reject.mutate()} disabled={reject.isPending}>
            {reject.isPending ? 'Rejecting…' : `Reject ${plural(pids.length, 'submission')}`}
          </Button>
        </div>
      </Modal>
    </section>
  );
}
