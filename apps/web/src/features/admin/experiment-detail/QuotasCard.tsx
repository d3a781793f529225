import type { Quota, QuotasReply } from '@studychat/contracts/web';
import { useState } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TH_CLASS } from '../../../components/SortableHeader';
import { TABLE_CLASS, TD_CLASS, TableScroll } from '../../../components/TableScroll';
import { errorText, serverMessage } from '../format';
import { useQuotas, useSaveQuotas } from './use-experiment-detail';

/** A quota row being edited: the max as typed. */
interface Draft {
  condition: string;
  stratum: string;
  max: string;
}

const EVERY = '';
const SELECT_CLASS =
  'mt-1 block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40';

const toDraft = (q: Quota): Draft => ({ condition: q.condition, stratum: q.stratum ?? EVERY, max: String(q.max) });

/** The drafts as quotas, or the first problem in words. */
export function quotasFromDrafts(drafts: readonly Draft[]): { quotas: Quota[] } | { error: string } {
  const quotas: Quota[] = [];
  for (const [i, d] of drafts.entries()) {
    const max = Number(d.max.trim());
    if (!Number.isInteger(max) || max < 1)
      return { error: `Quota ${i + 1}: the most participants must be a whole number of at least 1.` };
    quotas.push({ condition: d.condition, stratum: d.stratum === EVERY ? null : d.stratum, max });
  }
  return { quotas };
}

/**
 * 'Quotas' (docs/decisions/0077): at most so many participants per condition, in one stratum or in all; a full cell
 * stops assigning to it, and when every cell is full new participants see the closed page. Admins edit them.
 */
export function QuotasCard({ experimentId, editable }: { experimentId: string; editable: boolean }) {
  const quotas = useQuotas(experimentId);
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Quotas</h2>
      <p className="mt-1 text-sm text-slate-600">
        The most participants to assign to a condition, in one stratum or in every stratum. A full quota stops assigning
        to its condition; when every place is taken, new participants are told the study is closed. Previews are not
        counted.
      </p>
      <div className="mt-3">
        {quotas.isPending ? (
          <Spinner label="Loading quotas..." />
        ) : quotas.isError ? (
          <p role="alert" className="text-red-700">
            Failed to load quotas: {serverMessage(quotas.error, 'Failed to load data')}
          </p>
        ) : (
          <QuotasBody experimentId={experimentId} data={quotas.data} editable={editable} />
        )}
      </div>
    </Card>
  );
}

function QuotasBody({ experimentId, data, editable }: { experimentId: string; data: QuotasReply; editable: boolean }) {
  const save = useSaveQuotas(experimentId);
  const [drafts, setDrafts] = useState<Draft[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const stratumLabel = (s: string | null) => (s === null ? 'Every stratum' : s);

  function submit() {
    if (!drafts) return;
    const parsed = quotasFromDrafts(drafts);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    setError(null);
    save.mutate(parsed.quotas, {
      onSuccess: () => {
        setDrafts(null);
        setSaved(true);
      },
      onError: (e) => setError(errorText(e)),
    });
  }

  if (drafts) {
    const update = (i: number, change: Partial<Draft>) =>
      setDrafts(drafts.map((d, j) => (j === i ? { ...d, ...change } : d)));
    return (
      <div className="space-y-3">
        {drafts.length === 0 && <p className="text-slate-700">No quotas: every condition takes everyone.</p>}
        {drafts.map((d, i) => (
          <fieldset key={i} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 p-3">
            <legend className="px-1 text-sm font-semibold text-slate-800">Quota {i + 1}</legend>
            <label className="block text-sm font-medium text-slate-800">
              Condition
              <select
                className={SELECT_CLASS}
                value={d.condition}
                onChange={(e) => update(i, { condition: e.target.value })}
              >
                {data.conditions.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
            <label className="block text-sm font-medium text-slate-800">
              Stratum
              <select
                className={SELECT_CLASS}
                value={d.stratum}
                onChange={(e) => update(i, { stratum: e.target.value })}
              >
                <option value={EVERY}>Every stratum</option>
                {data.strata.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
            <label className="block text-sm font-medium text-slate-800">
              Most participants
              <input
                className={`${SELECT_CLASS} w-32`}
                inputMode="numeric"
                value={d.max}
                onChange={(e) => update(i, { max: e.target.value })}
              />
            </label>
            <Button variant="secondary" onClick={() => setDrafts(drafts.filter((_, j) => j !== i))}>
              Remove quota {i + 1}
            </Button>
          </fieldset>
        ))}
        {error && <Alert>{error}</Alert>}
        <div className="flex flex-wrap gap-3">
          <Button
            variant="secondary"
            disabled={data.conditions.length === 0}
            onClick={() => setDrafts([...drafts, { condition: data.conditions[0] ?? '', stratum: EVERY, max: '' }])}
          >
            Add quota
          </Button>
          <Button onClick={submit} disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save quotas'}
          </Button>
          <Button variant="secondary" onClick={() => setDrafts(null)} disabled={save.isPending}>
            Cancel
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-3">
      {data.full && <Alert tone="warning">Every place is taken: new participants are told the study is closed.</Alert>}
      {data.quotas.length === 0 ? (
        <p className="text-slate-700">No quotas: every condition takes everyone.</p>
      ) : (
        <TableScroll label="Quotas">
          <table className={TABLE_CLASS}>
            <thead>
              <tr>
                {['Condition', 'Stratum', 'Filled', 'Most'].map((h) => (
                  <th key={h} scope="col" className={TH_CLASS}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.quotas.map((q) => (
                <tr key={`${q.condition}-${q.stratum ?? ''}`}>
                  <td className={TD_CLASS}>{q.condition}</td>
                  <td className={TD_CLASS}>{stratumLabel(q.stratum)}</td>
                  <td className={TD_CLASS}>
                    {q.filled}
                    {q.filled >= q.max && <span className="ml-2 font-semibold text-red-800">Full</span>}
                  </td>
                  <td className={TD_CLASS}>{q.max}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {saved && (
        <p role="status" className="text-green-700">
          Quotas saved.
        </p>
      )}
      {editable && data.conditions.length > 0 && (
        <Button
          variant="secondary"
          onClick={() => {
            setSaved(false);
            setError(null);
            setDrafts(data.quotas.map(toDraft));
          }}
        >
          Set quotas
        </Button>
      )}
    </div>
  );
}
