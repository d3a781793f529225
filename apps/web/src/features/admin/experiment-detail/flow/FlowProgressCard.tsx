import { Alert } from '../../../../components/Alert';
import { Card } from '../../../../components/Card';
import { Spinner } from '../../../../components/Spinner';
import { TableScroll } from '../../../../components/TableScroll';
import { useFlowProgress } from './use-flow-admin';

/** The flow's monitor: how many participants are at each step, how many left by each pathway, and each one. */
export function FlowProgressCard({ experimentId }: { experimentId: string }) {
  const progress = useFlowProgress(experimentId);
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Where participants are</h2>
      {progress.isPending && <Spinner />}
      {progress.error && <Alert className="mt-3">{progress.error.message}</Alert>}
      {progress.data && progress.data.total === 0 && (
        <p className="mt-3 text-slate-600">No participants yet. They appear here as they join.</p>
      )}
      {progress.data && progress.data.total > 0 && (
        <div className="mt-3 space-y-5">
          <p className="text-slate-700">
            {progress.data.total} participant{progress.data.total === 1 ? '' : 's'};{' '}
            {progress.data.byCondition.map((c) => `${c.label}: ${c.count}`).join(', ')}.
          </p>
          <div className="grid gap-5 sm:grid-cols-2">
            <div>
              <h3 className="font-semibold text-slate-900">At each step</h3>
              <ul className="mt-2 space-y-1 text-sm">
                {progress.data.byStep
                  .filter((s) => s.type !== 'end')
                  .map((s) => (
                    <li key={s.stepId} className="flex justify-between gap-3">
                      <span className="font-mono">{s.stepId}</span>
                      <span>{s.count}</span>
                    </li>
                  ))}
              </ul>
            </div>
            <div>
              <h3 className="font-semibold text-slate-900">Completed, by pathway</h3>
              <ul className="mt-2 space-y-1 text-sm">
                {progress.data.byPathway.map((p) => (
                  <li key={p.key} className="flex justify-between gap-3">
                    <span>{p.label}</span>
                    <span>{p.count}</span>
                  </li>
                ))}
              </ul>
            </div>
          </div>
          <TableScroll label="Participants">
            <table className="min-w-full text-left text-sm">
              <thead>
                <tr className="border-b border-slate-200">
                  <th className="px-3 py-2">Prolific id</th>
                  <th className="px-3 py-2">Condition</th>
                  <th className="px-3 py-2">Step</th>
                  <th className="px-3 py-2">Pathway</th>
                  <th className="px-3 py-2">Flagged</th>
                </tr>
              </thead>
              <tbody>
                {progress.data.participants.map((p) => (
                  <tr key={p.userId} className="border-b border-slate-100">
                    <td className="px-3 py-2 font-mono break-all">{p.prolificPid ?? '-'}</td>
                    <td className="px-3 py-2">{p.condition ?? 'not yet'}</td>
                    <td className="px-3 py-2 font-mono">{p.lastStep}</td>
                    <td className="px-3 py-2">{p.pathway ?? '-'}</td>
                    <td className="px-3 py-2">{p.flagged.join(', ') || '-'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </div>
      )}
    </Card>
  );
}
