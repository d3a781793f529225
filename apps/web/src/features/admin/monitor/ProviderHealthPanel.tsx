import type { ProviderHealthPeriod } from '@studychat/contracts/web';
import { Alert } from '../../../components/Alert';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TABLE_CLASS, TD_CLASS, TableScroll } from '../../../components/TableScroll';
import { serverMessage } from '../format';
import { useProviderHealth } from './use-provider-health';

const TH = 'border-b border-slate-200 bg-slate-50 px-3 py-2 text-left font-semibold text-slate-700';
const NUM = `${TD_CLASS} text-right tabular-nums`;

/** 15 -> "Last 15 min", 60 -> "Last hour", 1440 -> "Last 24 h". */
export function periodLabel(minutes: number): string {
  if (minutes === 60) return 'Last hour';
  return minutes < 60 ? `Last ${minutes} min` : `Last ${minutes / 60} h`;
}

/** 1500 -> "1.5 s"; null -> "-". */
export function seconds(ms: number | null): string {
  return ms === null ? '-' : `${(ms / 1000).toFixed(1)} s`;
}

function Row({ period }: { period: ProviderHealthPeriod }) {
  return (
    <tr data-testid={`provider-health-${period.minutes}`}>
      <th scope="row" className={`${TD_CLASS} text-left font-normal`}>
        {periodLabel(period.minutes)}
      </th>
      <td className={NUM}>{period.replies}</td>
      <td className={`${NUM} ${period.errors > 0 ? 'font-semibold text-red-700' : ''}`}>{period.errors}</td>
      <td className={NUM}>{period.waited}</td>
      <td className={NUM}>
        {seconds(period.waitMedianMs)} / {seconds(period.waitMaxMs)}
      </td>
      <td className={NUM}>{period.fallbacks}</td>
    </tr>
  );
}

/** The model provider's health: replies that failed, waited their turn or came from the fallback model. */
export function ProviderHealth({ experimentId }: { experimentId: string }) {
  const health = useProviderHealth(experimentId);
  if (health.isPending) return <Spinner label="Loading provider health..." />;
  if (health.isError)
    return (
      <Alert>Could not load the provider&apos;s health: {serverMessage(health.error, 'Failed to load data')}</Alert>
    );
  return (
    <div className="space-y-2">
      <TableScroll label="Model provider health, scrollable" bleed={false}>
        <table className={TABLE_CLASS} aria-label="Model provider health">
          <thead>
            <tr>
              <th scope="col" className={TH}>
                Period
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Replies
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Errors
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Waited
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Wait median / longest
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Fallback model
              </th>
            </tr>
          </thead>
          <tbody>
            {health.data.periods.map((period) => (
              <Row key={period.minutes} period={period} />
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="text-sm text-slate-600">
        Errors: replies that failed (the participant was asked to send again). Waited: replies that queued for the
        provider&apos;s rate limit or its request to wait. Fallback model: replies answered by the condition&apos;s
        fallback model because its own model was overloaded or failing.
      </p>
    </div>
  );
}

/** The same as a card of its own, for a flow's experiment page (which has no live monitor). */
export function ProviderHealthPanel({ experimentId }: { experimentId: string }) {
  return (
    <Card>
      <section aria-labelledby="provider-health-heading" className="space-y-3">
        <h2 id="provider-health-heading" className="text-lg font-semibold text-slate-900">
          Model provider health
        </h2>
        <ProviderHealth experimentId={experimentId} />
      </section>
    </Card>
  );
}
