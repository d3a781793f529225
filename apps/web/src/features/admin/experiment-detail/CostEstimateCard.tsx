import { TARGET_SAMPLE_SIZE_MAX, type CostEstimateArm, type CostPair } from '@studychat/contracts/web';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TABLE_CLASS, TableScroll, TD_CLASS } from '../../../components/TableScroll';
import { TextField } from '../../../components/TextField';
import { serverMessage } from '../format';
import { usd } from '../monitor/monitor-view';
import { useCostEstimate } from './use-cost-estimate';

const TH = 'border-b border-slate-200 bg-slate-50 px-3 py-2 text-left font-semibold text-slate-700';
const NUM = `${TD_CLASS} text-right tabular-nums`;

/** The sample size typed, or why it cannot be estimated. */
export function sampleFrom(text: string): { sample: number } | { error: string } {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(value) || value < 1 || value > TARGET_SAMPLE_SIZE_MAX)
    return { error: `Type a whole number of participants from 1 to ${TARGET_SAMPLE_SIZE_MAX.toLocaleString()}.` };
  return { sample: value };
}

const unknown = 'unknown';
const money = (value: number | null) => (value === null ? unknown : usd(value));

function Pair({ pair }: { pair: CostPair }) {
  return (
    <>
      <td className={NUM}>{money(pair.uncached)}</td>
      <td className={NUM}>{money(pair.cached)}</td>
    </>
  );
}

function ArmRow({ arm }: { arm: CostEstimateArm }) {
  const models = arm.models.length === 0 ? 'no model call' : arm.models.join(', ');
  return (
    <tr data-testid={`cost-arm-${arm.condition}`}>
      <th scope="row" className={`${TD_CLASS} text-left font-normal`}>
        {arm.label}
        <span className="block text-xs text-slate-600">
          {models}
          {arm.unpriced.length > 0 && ` (no price for ${arm.unpriced.join(', ')})`}
        </span>
      </th>
      <td className={NUM}>{Math.round(arm.participants * 10) / 10}</td>
      <td className={NUM}>{arm.calls}</td>
      <Pair pair={arm.perParticipant} />
      <Pair pair={arm.total} />
    </tr>
  );
}

/** 'Expected chat cost': per arm and in total at the sample size the researcher types, without and with caching. */
export function CostEstimateCard({ experimentId }: { experimentId: string }) {
  const [text, setText] = useState('100');
  const [sample, setSample] = useState(100);
  const [error, setError] = useState<string | undefined>();
  const estimate = useCostEstimate(experimentId, sample);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = sampleFrom(text);
    if ('error' in typed) return setError(typed.error);
    setError(undefined);
    setSample(typed.sample);
  };
  const data = estimate.data;
  return (
    <Card>
      <section aria-labelledby="cost-estimate-heading" className="space-y-3">
        <h2 id="cost-estimate-heading" className="text-lg font-semibold text-slate-900">
          Expected chat cost
        </h2>
        <p className="text-sm text-slate-700">
          What the chat should cost before launch, from the pinned study&apos;s prompts, its completion rule and the
          model&apos;s prices, without and with the provider&apos;s prompt cache. An estimate, not a bill: the monitor
          shows what was spent.
        </p>
        <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3">
          <TextField
            label="Target sample size"
            inputMode="numeric"
            value={text}
            onChange={(e) => setText(e.target.value)}
            error={error}
            className="w-48"
          />
          <Button type="submit" variant="secondary">
            Estimate
          </Button>
        </form>
        {estimate.isPending ? (
          <Spinner label="Estimating..." />
        ) : estimate.isError || !data ? (
          <Alert>Could not estimate the cost: {serverMessage(estimate.error, 'Failed to load data')}</Alert>
        ) : (
          <>
            <p className="text-slate-900" data-testid="cost-total">
              <strong>{data.sample.toLocaleString()} participants:</strong> {money(data.total.uncached)} without
              caching, {money(data.total.cached)} with caching ({money(data.perParticipant.uncached)} and{' '}
              {money(data.perParticipant.cached)} per participant).
            </p>
            <TableScroll label="Expected chat cost per arm">
              <table className={TABLE_CLASS}>
                <thead>
                  <tr>
                    <th scope="col" className={TH}>
                      Arm (model)
                    </th>
                    <th scope="col" className={`${TH} text-right`}>
                      Participants
                    </th>
                    <th scope="col" className={`${TH} text-right`}>
                      Calls each
                    </th>
                    <th scope="col" className={`${TH} text-right`}>
                      Each, no caching
                    </th>
                    <th scope="col" className={`${TH} text-right`}>
                      Each, caching
                    </th>
                    <th scope="col" className={`${TH} text-right`}>
                      Arm, no caching
                    </th>
                    <th scope="col" className={`${TH} text-right`}>
                      Arm, caching
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.arms.map((arm) => (
                    <ArmRow key={arm.condition} arm={arm} />
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <h3 className="font-semibold text-slate-900">What this assumes</h3>
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
              {data.assumptions.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        )}
      </section>
    </Card>
  );
}
