import type { BudgetStatus, ChatLimitsReply } from '@studychat/contracts/web';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TextField } from '../../../components/TextField';
import { errorText, serverMessage } from '../format';
import { formatLimit, LIMIT_FIELDS, limitChanges, limitFormFrom, type LimitForm } from './chat-limit-fields';
import { useChatLimits, useSaveChatLimits } from './use-chat-limits';

const usd = (value: number) =>
  `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;

/** The budget line: spent against the budget, warning from 80%, stopped at 100%, and whether newcomers are admitted. */
export function BudgetLine({ budget }: { budget: BudgetStatus }) {
  if (budget.budgetUsd === null) {
    return <p className="text-slate-700">Spent on the chat so far: {usd(budget.spentUsd)} (no budget set).</p>;
  }
  const percent = Math.min(100, Math.floor((budget.spentUsd / budget.budgetUsd) * 100));
  const text = `Spent ${usd(budget.spentUsd)} of ${usd(budget.budgetUsd)} (${percent}%).`;
  return (
    <div>
      {budget.state === 'stopped' ? (
        <Alert>
          <strong>Budget used up:</strong> {text} The chat gives no more replies; participants see that it has ended and
          can proceed. Raise the budget to let new chats start.
        </Alert>
      ) : budget.state === 'warning' ? (
        <Alert tone="warning">
          <strong>Budget nearly used:</strong> {text} At 100% the chat stops for every participant.
        </Alert>
      ) : (
        <p className="text-slate-700">{text}</p>
      )}
      {!budget.admitting && budget.state !== 'stopped' && (
        <Alert tone="warning" className="mt-2">
          <strong>No new participants:</strong> the study page turns newcomers away (the budget is nearly spent);
          participants already in the study can finish. Raise the budget or the admit percent to admit again.
        </Alert>
      )}
      <div
        role="progressbar"
        aria-label="Chat budget spent"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-2 h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={`h-full rounded-full ${budget.state === 'stopped' ? 'bg-red-600' : budget.state === 'warning' ? 'bg-amber-500' : 'bg-brand-500'}`}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

/** 'Chat limits and budget': what applies in this experiment, and the experiment's own values. */
export function ChatLimitsCard({ experimentId }: { experimentId: string }) {
  const limits = useChatLimits(experimentId);
  const save = useSaveChatLimits(experimentId);
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Chat limits and budget</h2>
      {limits.isPending ? (
        <Spinner label="Loading chat limits..." />
      ) : limits.isError ? (
        <Alert className="mt-3">Failed to load chat limits: {serverMessage(limits.error, 'Failed to load data')}</Alert>
      ) : (
        <div className="mt-3 space-y-4">
          <BudgetLine budget={limits.data.budget} />
          {/* Keyed by the saved values, so the form starts from them after each save. */}
          <LimitsForm key={JSON.stringify(limits.data.overrides)} save={save} data={limits.data} />
        </div>
      )}
    </Card>
  );
}

function LimitsForm({ save, data }: { save: ReturnType<typeof useSaveChatLimits>; data: ChatLimitsReply }) {
  const [form, setForm] = useState<LimitForm>(() => limitFormFrom(data.overrides));
  const [problem, setProblem] = useState<string | null>(null);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const { changes, error } = limitChanges(data.overrides, form);
    setProblem(error);
    if (error || Object.keys(changes).length === 0) return;
    save.mutate(changes);
  }

  return (
    <form noValidate onSubmit={handleSubmit}>
      <p className="text-sm text-slate-600">
        Leave a field empty to use the server&apos;s default (set in its environment). A chat ended by a limit stays
        ended; participants can always proceed.
      </p>
      <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {LIMIT_FIELDS.map(({ key, label, hint }) => (
          <TextField
            key={key}
            label={label}
            name={key}
            inputMode={key === 'budgetUsd' ? 'decimal' : 'numeric'}
            autoComplete="off"
            placeholder={`Default: ${formatLimit(key, data.defaults[key])}`}
            hint={`${hint} Applies now: ${formatLimit(key, data.effective[key])}.`}
            value={form[key]}
            onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
          />
        ))}
      </div>
      {problem && <Alert className="mt-3">{problem}</Alert>}
      {save.isError && <Alert className="mt-3">Failed to save chat limits: {errorText(save.error)}</Alert>}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save limits'}
        </Button>
        {save.isSuccess && (
          <span role="status" className="text-sm font-medium text-green-700">
            Chat limits saved.
          </span>
        )}
      </div>
    </form>
  );
}
