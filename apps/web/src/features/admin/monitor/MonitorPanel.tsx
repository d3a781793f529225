import type { MonitorReply } from '@studychat/contracts/web';
import { Alert } from '../../../components/Alert';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { useCanEditExperiment } from '../experiment-role';
import { formatDateTime, serverMessage } from '../format';
import { useId, useState } from 'react';
import { MonitorFunnel } from './MonitorFunnel';
import { MonitorParticipants } from './MonitorParticipants';
import { MonitorSettingsForm } from './MonitorSettingsForm';
import { ProviderHealth } from './ProviderHealthPanel';
import { usd } from './monitor-view';
import { useMonitor, useMonitorStream } from './use-monitor';
import { ExperimentStateBadge } from '../ExperimentStateBadge';

function Tile({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <div className="rounded-lg bg-slate-100 p-3">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="text-2xl font-bold text-slate-900 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Summary({ data }: { data: MonitorReply }) {
  const s = data.summary;
  // The same categories as the participant list (participant-status.ts): a screened-out participant is screened
  // out whether or not their code was shown; "Completed" is the full study.
  const screenedOut = s.screened_out.confirm + s.screened_out.ceiling + s.completed.confirm + s.completed.ceiling;
  return (
    <dl className="grid grid-cols-[repeat(auto-fit,minmax(8rem,1fr))] gap-3">
      <Tile label="Total" value={s.total} testId="monitor-total" />
      <Tile label="Not yet assigned" value={s.not_yet_assigned} testId="monitor-not-yet-assigned" />
      <Tile label="In progress" value={s.in_progress} testId="monitor-in-progress" />
      <Tile label="Stale" value={s.stale} testId="monitor-stale" />
      <Tile label="Screened out" value={screenedOut} testId="monitor-screened-out" />
      <Tile label="Completed (full study)" value={s.completed.complete} testId="monitor-completed" />
    </dl>
  );
}

function Spend({ data }: { data: MonitorReply }) {
  const { spend } = data;
  return (
    <dl className="grid gap-1 text-sm sm:grid-cols-2">
      <div>
        <dt className="inline font-semibold">Spent: </dt>
        <dd className="inline">
          {usd(spend.cost_usd)} ({spend.tokens.toLocaleString()} tokens)
        </dd>
      </div>
      <div data-testid="monitor-cache">
        <dt className="inline font-semibold">Prompt cache: </dt>
        <dd className="inline">
          {spend.cache_read_tokens.toLocaleString()} tokens read, {spend.cache_write_tokens.toLocaleString()} written
        </dd>
      </div>
      {Object.entries(spend.by_condition).map(([condition, line]) => (
        <div key={condition}>
          <dt className="inline font-semibold">{condition}: </dt>
          <dd className="inline">
            {usd(line.cost_usd)} over {line.participants} chats ({line.tokens.toLocaleString()} tokens)
          </dd>
        </div>
      ))}
      <div>
        <dt className="inline font-semibold">Per participant: </dt>
        <dd className="inline">{usd(spend.cost_per_participant_usd)}</dd>
      </div>
      <div>
        <dt className="inline font-semibold">Projected at target: </dt>
        <dd className="inline">
          {spend.target_sample_size === null
            ? 'set a target sample size'
            : `${usd(spend.projected_usd)} for ${spend.target_sample_size} participants`}
        </dd>
      </div>
      <div data-testid="monitor-preview-spend">
        <dt className="inline font-semibold">Previews (not counted above): </dt>
        <dd className="inline">
          {usd(spend.previews.cost_usd)} over {spend.previews.chats} of {spend.previews.runs} preview runs (
          {spend.previews.tokens.toLocaleString()} tokens)
        </dd>
      </div>
      <div>
        <dt className="inline font-semibold">Bill so far, previews included: </dt>
        <dd className="inline" data-testid="monitor-bill">
          {usd(spend.cost_usd + spend.previews.cost_usd)}
        </dd>
      </div>
    </dl>
  );
}

/** The live study monitor: counts, funnel, spend, ratio check and every participant, updated as they move. */
export function MonitorPanel({ experimentId }: { experimentId: string }) {
  const [includeTests, setIncludeTests] = useState(false);
  const testsHintId = useId();
  const monitor = useMonitor(experimentId, includeTests);
  // The settings form for those who may change them (not a viewer): the server refuses the others.
  const mayEdit = useCanEditExperiment(experimentId);
  const live = useMonitorStream(experimentId, monitor.data?.seq);
  return (
    <Card>
      <section aria-labelledby="monitor-heading" className="space-y-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="monitor-heading" className="text-lg font-semibold text-slate-900">
              Live Monitor
            </h2>
            {monitor.data && <ExperimentStateBadge state={monitor.data.state} />}
          </div>
          <p className="text-sm text-slate-600">
            <span
              aria-hidden="true"
              className={`mr-1 inline-block h-2 w-2 rounded-full ${live ? 'bg-green-600' : 'bg-slate-400'}`}
            />
            <span data-testid="monitor-live">{live ? 'Live' : 'Connecting...'}</span>
            {monitor.data && <span> · updated {formatDateTime(monitor.data.generated_at)}</span>}
          </p>
        </div>
        {monitor.isPending ? (
          <Spinner label="Loading monitor..." />
        ) : monitor.isError ? (
          <Alert>Could not load the monitor: {serverMessage(monitor.error, 'Failed to load data')}</Alert>
        ) : (
          <>
            <Summary data={monitor.data} />
            {monitor.data.srm.warning && <Alert tone="warning">{monitor.data.srm.warning}</Alert>}
            <h3 className="font-semibold text-slate-900">Funnel</h3>
            <MonitorFunnel funnel={monitor.data.funnel} />
            <h3 className="font-semibold text-slate-900">Spend</h3>
            <Spend data={monitor.data} />
            <h3 className="font-semibold text-slate-900">Model provider health</h3>
            <ProviderHealth experimentId={experimentId} />
            <p className="text-sm text-slate-600">
              Sample ratio by baseline stratum:{' '}
              {monitor.data.srm.strata
                .map((s) => `${s.stratum}: ${Object.values(s.counts).join('/')} (p = ${s.p_value.toFixed(2)})`)
                .join('; ')}
            </p>
            {mayEdit && <MonitorSettingsForm experimentId={experimentId} settings={monitor.data.settings} />}
            <h3 className="font-semibold text-slate-900">Participants</h3>
            <div>
              <label className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="h-5 w-5"
                  checked={includeTests}
                  aria-describedby={testsHintId}
                  onChange={(e) => setIncludeTests(e.target.checked)}
                />
                Include test runs
              </label>
              <p id={testsHintId} className="text-sm text-slate-600">
                Preview runs (preview as participant), listed with a “Test run” badge. The counts, funnel, spend and
                sample ratio above are real participants only.
              </p>
            </div>
            <MonitorParticipants rows={monitor.data.participants} />
          </>
        )}
      </section>
    </Card>
  );
}
