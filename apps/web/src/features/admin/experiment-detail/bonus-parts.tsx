import type { BonusBatch } from '@studychat/contracts/web';

// Small pieces of the Bonuses card (ProlificBonusCard, docs/decisions/0089): the idempotency key, the words for a
// batch's state and amounts, the list of a refusal's lines, and the batches made so far.

/** A fresh idempotency key: random, and made without crypto.randomUUID (absent on plain http). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `bonus-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Prolific answers a set-up's amounts in minor units (850 for £8.50; fees may have fractions of a penny). */
export const pounds = (minor: string) =>
  Number.isFinite(Number(minor)) ? `£${(Number(minor) / 100).toFixed(2)}` : minor;
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
export const STATUS_WORDS: Record<BonusBatch['status'], string> = {
  prepared: 'prepared, not paid',
  setting_up: 'being set up on Prolific',
  set_up: 'set up on Prolific, not paid',
  paying: 'being paid',
  paid: 'paid',
  failed: 'payment not confirmed by Prolific',
};

export function IssueList({ issues }: { issues: { path: string; message: string }[] }) {
  if (issues.length === 0) return null;
  return (
    <ul className="mt-1 list-disc pl-5">
      {issues.map((i) => (
        <li key={`${i.path}:${i.message}`}>
          {i.path}: {i.message}
        </li>
      ))}
    </ul>
  );
}

/** The experiment's bonus batches, newest first. */
export function BonusHistory({ batches }: { batches: BonusBatch[] }) {
  if (batches.length === 0) return null;
  return (
    <section className="mt-6 border-t border-slate-200 pt-4" aria-labelledby="bonus-history-heading">
      <h3 id="bonus-history-heading" className="font-semibold text-slate-900">
        Bonus batches
      </h3>
      <ul className="mt-2 space-y-1 text-sm text-slate-700" data-testid="bonus-history">
        {batches.map((b) => (
          <li key={b.id}>
            {new Date(b.createdAt).toLocaleString()}: £{b.total} to {plural(b.lines.length, 'participant')},{' '}
            {STATUS_WORDS[b.status]}. {b.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}
