import { endpoints, PATHWAYS, type BonusBatch, type Pathway } from '@studychat/contracts/web';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Modal } from '../../../components/Modal';
import { TextField } from '../../../components/TextField';
import { ApiError, api } from '../../../lib/api';
import { serverMessage } from '../format';
import { TextArea } from '../TextArea';
import { BonusHistory, IssueList, newIdempotencyKey, plural, pounds, STATUS_WORDS } from './bonus-parts';

/**
 * Bonuses on Prolific through our ledger (docs/decisions/0089): from a rule (everyone who finished on a pathway) or
 * a pasted CSV, prepared first (lines and total shown), then paid after a confirmation. The page makes one
 * idempotency key per prepared batch, so a double click on Prepare makes one batch; paying is once per batch on
 * the server whatever the clicks.
 */
export function ProlificBonusCard({ experimentId }: { experimentId: string }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<'rule' | 'csv'>('rule');
  const [pathway, setPathway] = useState<Pathway>('complete');
  const [amount, setAmount] = useState('');
  const [csv, setCsv] = useState('');
  const [reason, setReason] = useState('');
  const [confirmRepeats, setConfirmRepeats] = useState(false);
  const [confirmNotPaid, setConfirmNotPaid] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const key = useRef<string | null>(null);
  const paying = useRef(false);
  const edited =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      key.current = null;
      set(v);
    };

  const list = useQuery({
    queryKey: ['prolific-bonuses', experimentId],
    queryFn: () => api(endpoints.prolificPay.bonuses, { params: { id: experimentId } }),
    // A batch another request is setting up or paying: read it again until it settles.
    refetchInterval: (query) =>
      query.state.data?.batches.some((b) => b.status === 'setting_up' || b.status === 'paying') ? 2000 : false,
  });
  const prepare = useMutation({
    mutationFn: (idempotencyKey: string) =>
      api(endpoints.prolificPay.prepareBonus, {
        params: { id: experimentId },
        body: {
          idempotencyKey,
          reason: reason.trim(),
          source: kind === 'rule' ? { kind, pathway, amount: amount.trim() } : { kind, csv },
        },
      }),
    onSuccess: () => {
      setConfirmRepeats(false);
      setConfirmNotPaid(false);
      pay.reset();
      void queryClient.invalidateQueries({ queryKey: ['prolific-bonuses', experimentId] });
    },
  });
  const batch: BonusBatch | undefined = prepare.data;
  const pay = useMutation({
    mutationFn: (id: string) =>
      api(endpoints.prolificPay.payBonus, {
        params: { id: experimentId, batchId: id },
        body: { ...(confirmRepeats ? { confirmRepeats } : {}), ...(confirmNotPaid ? { confirmNotPaid } : {}) },
      }),
    onSettled: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: ['prolific-bonuses', experimentId] });
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (prepare.isPending) return;
    key.current ??= newIdempotencyKey();
    prepare.mutate(key.current);
  };
  // The freshest word on the prepared batch: its preparation, a pay reply, or the list read since.
  const shown = [batch, pay.data, list.data?.batches.find((b) => b.id === batch?.id)]
    .filter((b): b is BonusBatch => b !== undefined && b.id === batch?.id)
    .reduce<BonusBatch | undefined>((best, b) => (!best || b.updatedAt >= best.updatedAt ? b : best), undefined);
  const repeats = shown?.lines.filter((l) => l.alreadyBonused).length ?? 0;
  const uncertain =
    shown?.status === 'failed' || (pay.error instanceof ApiError && pay.error.code === 'BONUS_PAY_UNCERTAIN');
  const payLabel = shown ? `Pay £${shown.total} to ${plural(shown.lines.length, 'participant')}` : '';
  const issues = (error: unknown) => (error instanceof ApiError ? (error.details.issues ?? []) : []);

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Bonuses</h2>
      <p className="mt-2 text-sm text-slate-700">
        Prepare bonuses from a rule or a list, check the lines and the total, then pay. Amounts are in the study&apos;s
        currency (pounds unless your Prolific study says otherwise). Each prepared batch is paid once on Prolific,
        whatever the clicks or retries.
      </p>
      <form className="mt-4 space-y-3" onSubmit={submit}>
        <TextField
          label="Reason (kept in our records)"
          value={reason}
          maxLength={300}
          onChange={(e) => edited(setReason)(e.target.value)}
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-900">Who gets a bonus</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            <label className="flex min-h-11 items-center gap-2">
              <input
                type="radio"
                name="bonus-kind"
                checked={kind === 'rule'}
                onChange={() => edited(setKind)('rule')}
              />
              Everyone who finished on a pathway
            </label>
            <label className="flex min-h-11 items-center gap-2">
              <input type="radio" name="bonus-kind" checked={kind === 'csv'} onChange={() => edited(setKind)('csv')} />A
              list (Prolific id, amount)
            </label>
          </div>
        </fieldset>
        {kind === 'rule' ? (
          <div className="flex flex-wrap items-end gap-3">
            <label className="flex flex-col text-sm font-medium text-slate-900">
              Bonus pathway
              <select
                className="mt-1 min-h-11 rounded-lg border border-slate-300 px-3"
                value={pathway}
                onChange={(e) => edited(setPathway)(e.target.value as Pathway)}
              >
                {PATHWAYS.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </label>
            <TextField
              label="Amount each (£)"
              inputMode="decimal"
              placeholder="0.50"
              value={amount}
              onChange={(e) => edited(setAmount)(e.target.value)}
            />
          </div>
        ) : (
          <TextArea
            label="Lines: Prolific id,amount"
            rows={5}
            placeholder={'5f1a2b3c4d5e6f7a8b9c0d1e,0.50'}
            value={csv}
            spellCheck={false}
            onChange={(e) => edited(setCsv)(e.target.value)}
          />
        )}
        <Button type="submit" variant="secondary" disabled={prepare.isPending}>
          {prepare.isPending ? 'Preparing…' : 'Prepare bonuses'}
        </Button>
      </form>
      {prepare.isError && (
        <Alert className="mt-3">
          <p>{serverMessage(prepare.error, 'Could not prepare the bonuses.')}</p>
          <IssueList issues={issues(prepare.error)} />
        </Alert>
      )}
      {shown && (
        <section className="mt-4" aria-labelledby="bonus-preview-heading" data-testid="bonus-preview">
          <h3 id="bonus-preview-heading" className="font-semibold text-slate-900">
            {plural(shown.lines.length, 'participant')}, £{shown.total} in all ({STATUS_WORDS[shown.status]})
          </h3>
          <div className="mt-2 max-h-64 overflow-auto rounded-lg border border-slate-200">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50">
                <tr>
                  <th className="px-3 py-2">Prolific id</th>
                  <th className="px-3 py-2 text-right">Bonus</th>
                  <th className="px-3 py-2">Note</th>
                </tr>
              </thead>
              <tbody>
                {shown.lines.map((l) => (
                  <tr key={l.prolificPid} className="border-t border-slate-100">
                    <td className="px-3 py-1.5 font-mono break-all">{l.prolificPid}</td>
                    <td className="px-3 py-1.5 text-right">£{l.amount}</td>
                    <td className="px-3 py-1.5 text-amber-800">{l.alreadyBonused ? 'already has a bonus' : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {shown.prolificTotal && (
            <p className="mt-2 text-sm text-slate-700" data-testid="bonus-prolific-figures">
              Prolific&apos;s figures for the set-up: total {pounds(shown.prolificTotal)}
              {shown.prolificFees !== null ? `, of which fees ${pounds(shown.prolificFees)}` : ''}.
            </p>
          )}
          {shown.status === 'paid' ? (
            <p role="status" className="mt-3 font-medium text-green-700" data-testid="bonus-paid">
              Paid £{shown.total} to {plural(shown.lines.length, 'participant')} on Prolific.
            </p>
          ) : (
            <div className="mt-3 space-y-2">
              {repeats > 0 && (
                <label className="flex items-start gap-2 text-sm text-slate-900">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={confirmRepeats}
                    onChange={(e) => setConfirmRepeats(e.target.checked)}
                  />
                  {plural(repeats, 'participant')} already {repeats === 1 ? 'has' : 'have'} a bonus from another batch:
                  pay them again.
                </label>
              )}
              {uncertain && (
                <label className="flex items-start gap-2 text-sm text-slate-900">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={confirmNotPaid}
                    onChange={(e) => setConfirmNotPaid(e.target.checked)}
                  />
                  I checked the bonuses on Prolific: this batch was not paid.
                </label>
              )}
              <Button
                variant="primary"
                onClick={() => setConfirming(true)}
                disabled={pay.isPending || (repeats > 0 && !confirmRepeats) || (uncertain && !confirmNotPaid)}
              >
                {payLabel}…
              </Button>
            </div>
          )}
          {pay.isError && (
            <Alert className="mt-3">
              <p>{serverMessage(pay.error, 'Could not pay on Prolific.')}</p>
              <IssueList issues={issues(pay.error)} />
            </Alert>
          )}
        </section>
      )}
      {shown && (
        <Modal
          open={confirming}
          onOpenChange={(open) => !pay.isPending && setConfirming(open)}
          title={`${payLabel}?`}
          description="Prolific pays the bonuses (and its fees) from your balance; this cannot be undone."
        >
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={pay.isPending}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                // A double click lands twice before the button is disabled: the second is dropped here (and the
                // server pays a batch once whatever arrives).
                if (paying.current) return;
                paying.current = true;
                pay.mutate(shown.id, { onSettled: () => (paying.current = false) });
              }}
              disabled={pay.isPending}
            >
              {pay.isPending ? 'Paying…' : payLabel}
            </Button>
          </div>
        </Modal>
      )}
      <BonusHistory batches={list.data?.batches ?? []} />
    </Card>
  );
}
