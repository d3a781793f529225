import type { MonitorFunnel as Funnel } from '@studychat/contracts/web';
import { TABLE_CLASS, TD_CLASS, TableScroll } from '../../../components/TableScroll';
import { FUNNEL_LABEL } from './monitor-view';

const TH = 'border-b border-slate-200 bg-slate-50 px-3 py-2 text-left font-semibold text-slate-700';

/** How many passed each point, how many stale ones wait there, and the CONSORT numbers. */
export function MonitorFunnel({ funnel }: { funnel: Funnel }) {
  return (
    <div className="grid gap-4 md:grid-cols-[1.3fr_1fr]">
      <TableScroll label="Funnel, scrollable" bleed={false}>
        <table className={TABLE_CLASS} aria-label="Funnel">
          <thead>
            <tr>
              <th scope="col" className={TH}>
                Step
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Reached
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Dropped here
              </th>
            </tr>
          </thead>
          <tbody>
            {funnel.steps.map((step) => (
              <tr key={step.key} data-testid={`funnel-${step.key}`}>
                <th scope="row" className={`${TD_CLASS} text-left font-normal`}>
                  {FUNNEL_LABEL[step.key] ?? step.key}
                </th>
                <td className={`${TD_CLASS} text-right tabular-nums`}>{step.reached}</td>
                <td className={`${TD_CLASS} text-right tabular-nums`}>{step.dropped}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <dl className="space-y-1 text-sm">
        <dt className="font-semibold text-slate-900">CONSORT</dt>
        <dd>Screened out, no concerns at entry: {funnel.screened_out_confirm}</dd>
        <dd>Screened out, intention at ceiling (7): {funnel.screened_out_ceiling}</dd>
        {Object.entries(funnel.assigned).map(([condition, n]) => (
          <dd key={condition}>
            Allocated to {condition}: {n}
          </dd>
        ))}
        {Object.entries(funnel.completed).map(([pathway, n]) => (
          <dd key={pathway}>
            Completion recorded, {pathway}: {n}
          </dd>
        ))}
      </dl>
    </div>
  );
}
