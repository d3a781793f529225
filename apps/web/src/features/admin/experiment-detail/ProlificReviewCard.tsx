import { endpoints, PATHWAYS } from '@studychat/contracts/web';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { api } from '../../../lib/api';
import { serverMessage } from '../format';
import { ProlificRejectPanel } from './ProlificRejectPanel';

const PATHWAY_LABELS: Record<(typeof PATHWAYS)[number], string> = {
  complete: 'Completed the study (complete)',
  confirm: 'Exit: no qualms (confirm)',
  ceiling: 'Exit: ceiling (ceiling)',
};

/**
 * Review and pay on Prolific (admins, docs/decisions/0086-prolific-link-join.md): approve in one bulk call every
 * submission awaiting review of the participants on a pathway; reject named participants with Prolific's reasons
 * (docs/decisions/0089). Bonuses are the card beside it (ProlificBonusCard).
 */
export function ProlificReviewCard({ experimentId }: { experimentId: string }) {
  const [pathway, setPathway] = useState<(typeof PATHWAYS)[number]>('complete');
  const approve = useMutation({
    mutationFn: () => api(endpoints.prolific.approve, { params: { id: experimentId }, body: { pathway } }),
  });

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Review and pay</h2>
      <p className="mt-2 text-sm text-slate-700">
        Approves on Prolific every submission that awaits review of the participants on the chosen pathway (their status
        comes from Prolific&apos;s webhooks). Each submission is approved once, even after a double click.
      </p>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm font-medium text-slate-900">
          Pathway
          <select
            className="mt-1 min-h-11 rounded-lg border border-slate-300 px-3"
            value={pathway}
            onChange={(e) => setPathway(e.target.value as (typeof PATHWAYS)[number])}
          >
            {PATHWAYS.map((p) => (
              <option key={p} value={p}>
                {PATHWAY_LABELS[p]}
              </option>
            ))}
          </select>
        </label>
        <Button onClick={() => approve.mutate()} disabled={approve.isPending}>
          Approve those awaiting review
        </Button>
      </div>
      {approve.isSuccess && (
        <p className="mt-3 text-slate-700" role="status" data-testid="prolific-approved">
          {approve.data.approved === 0
            ? 'No submission of this pathway awaits review.'
            : `Approved ${approve.data.approved} submission${approve.data.approved === 1 ? '' : 's'} on Prolific.`}
        </p>
      )}
      {approve.isError && (
        <Alert className="mt-3">
          <p>{serverMessage(approve.error, 'Could not approve on Prolific.')}</p>
        </Alert>
      )}
      <ProlificRejectPanel experimentId={experimentId} />
    </Card>
  );
}
