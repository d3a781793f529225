import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { serverMessage } from '../format';
import { useParticipantSummary } from './use-experiment-detail';

/** Total participants and counts per condition, then the same people by status: each counted once. */
export function ParticipantSummaryCard({ experimentId }: { experimentId: string }) {
  const summary = useParticipantSummary(experimentId);
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Participant Summary</h2>
      <div className="mt-3">
        {summary.isPending ? (
          <Spinner label="Loading summary..." />
        ) : summary.isError ? (
          <p role="alert" className="text-red-700">
            Error loading summary: {serverMessage(summary.error, 'Failed to fetch participant summary')}
          </p>
        ) : (
          <dl className="grid grid-cols-[repeat(auto-fit,minmax(7rem,1fr))] gap-3">
            <div className="rounded-lg bg-brand-50 p-3">
              <dt className="text-sm text-brand-900">Total</dt>
              <dd className="text-2xl font-bold text-brand-900">{summary.data.total}</dd>
            </div>
            {Object.entries(summary.data.conditions).map(([condition, count]) => (
              <div key={condition} className="rounded-lg bg-slate-100 p-3">
                <dt className="text-sm text-slate-700">{condition}</dt>
                <dd className="text-2xl font-bold text-slate-900">{count}</dd>
              </div>
            ))}
          </dl>
        )}
        {summary.isSuccess && (
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm text-slate-700">
            {[
              ['Not yet assigned', summary.data.not_yet_assigned],
              ['In progress', summary.data.in_progress],
              ['Stale', summary.data.stale],
              ['Screened out (no concerns)', summary.data.screened_out.confirm],
              ['Screened out (ceiling)', summary.data.screened_out.ceiling],
              ['Completed (full study)', summary.data.completed.complete],
              ['Completed (no concerns)', summary.data.completed.confirm],
              ['Completed (ceiling)', summary.data.completed.ceiling],
            ].map(([label, n]) => (
              <div key={label} className="flex justify-between gap-2">
                <dt>{label}</dt>
                <dd className="font-semibold tabular-nums">{n}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
    </Card>
  );
}
