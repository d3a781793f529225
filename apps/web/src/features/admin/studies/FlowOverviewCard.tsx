import { ESTIMATE, flowOverview, type FlowDefinition } from '@studychat/contracts/web';
import { useMemo } from 'react';
import { Alert } from '../../../components/Alert';
import { Card } from '../../../components/Card';
import { TableScroll } from '../../../components/TableScroll';

/** 95 -> "1 min 35 s"; 0 -> "none". */
function minutes(seconds: number): string {
  if (seconds === 0) return 'none';
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m === 0 ? `${s} s` : s === 0 ? `${m} min` : `${m} min ${s} s`;
}

/**
 * Before launch (issue 31): the steps each condition walks, the pathways it can end on, the least time the server
 * lets a participant take and an estimate of the time they take, and what looks unintended (warnings the checks
 * let through). Computed in the browser from the flow on screen (contracts' flowOverview).
 */
export function FlowOverviewCard({ flow }: { flow: FlowDefinition }) {
  const overview = useMemo(() => {
    try {
      return flowOverview(flow);
    } catch {
      // A draft half-written in the JSON view: the overview waits until it reads as a flow.
      return null;
    }
  }, [flow]);
  if (!overview) {
    return (
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">What each condition walks</h2>
        <p className="mt-1 text-sm text-slate-600">The overview shows once the definition can be read as a study.</p>
      </Card>
    );
  }
  const { walks, warnings } = overview;
  const label = (condition: string | null) =>
    condition === null ? 'Every participant' : (flow.conditions.find((c) => c.id === condition)?.label ?? condition);
  const pathway = (key: string) => flow.pathways.find((p) => p.key === key)?.label ?? key;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">What each condition walks</h2>
      <p className="mt-1 text-sm text-slate-600">
        The least time is what the study enforces (pages’ and sections’ minimum times, chat minutes). The estimate
        assumes {ESTIMATE.wordsPerMinute} words read a minute, {ESTIMATE.secondsPerQuestion} s a question,{' '}
        {ESTIMATE.secondsPerRound} s a chat round and {ESTIMATE.secondsPerAiText} s an AI text: pilot the study to know.
      </p>
      {warnings.length > 0 ? (
        <Alert tone="warning" className="mt-3">
          <p className="font-semibold">To look at before launch</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {warnings.map((w) => (
              <li key={`${w.path}:${w.message}`}>
                {w.path && <span className="font-mono">{w.path}</span>}
                {w.path && ': '}
                {w.message}
              </li>
            ))}
          </ul>
        </Alert>
      ) : (
        <p className="mt-3 text-sm text-green-800">Nothing to look at before launch.</p>
      )}
      <TableScroll label="What each condition walks">
        <table className="mt-3 min-w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="px-3 py-2">
                Condition
              </th>
              <th scope="col" className="px-3 py-2">
                Steps, in order
              </th>
              <th scope="col" className="px-3 py-2">
                Can end on
              </th>
              <th scope="col" className="px-3 py-2">
                Least time
              </th>
              <th scope="col" className="px-3 py-2">
                Estimate
              </th>
            </tr>
          </thead>
          <tbody>
            {walks.map((walk) => (
              <tr key={walk.condition ?? 'all'} className="border-b border-slate-100 align-top" data-testid="walk">
                <th scope="row" className="px-3 py-2 text-left font-medium">
                  {label(walk.condition)}
                  {!walk.chat && <span className="block text-xs font-normal text-slate-600">no chat</span>}
                </th>
                <td className="px-3 py-2">
                  <ol className="list-decimal pl-5">
                    {walk.steps.map((s) => (
                      <li key={s.id}>
                        {s.title} <span className="font-mono text-xs text-slate-500">({s.type})</span>
                      </li>
                    ))}
                  </ol>
                </td>
                <td className="px-3 py-2">{walk.pathways.map(pathway).join(', ')}</td>
                <td className="px-3 py-2 tabular-nums">{minutes(walk.minimumSeconds)}</td>
                <td className="px-3 py-2 tabular-nums">{minutes(walk.estimatedSeconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </Card>
  );
}
