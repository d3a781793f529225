import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ChatModel, ChatRequest } from '../../llm/chat-model.js';
import { cachePrices, maxInputPerMTok, priceFor, type ModelPrice, type PriceTable } from '../../llm/pricing.js';
import { maxInputTokens } from '../../llm/usage.js';
import { lockExperimentSpend, readExperimentSpend, setReservation } from './spend.repository.js';

// Spend reserved before a model call and settled when its reply is stored (docs/decisions/0073), so replies in
// flight cannot take an experiment past its budget by more than one reply's maximum.

/**
 * The price a reply is counted at: the study condition's own, else the price table's for the model that
 * answered (the provider's name for it), else for the model asked. Null: no price is known.
 */
export function replyPrice(
  own: ModelPrice | undefined,
  models: { answered?: string | undefined; asked: string },
  prices: PriceTable,
): Required<ModelPrice> | null {
  if (own) return cachePrices(own, models.answered ?? models.asked);
  return (models.answered === undefined ? null : priceFor(models.answered, prices)) ?? priceFor(models.asked, prices);
}

/**
 * The most a call can cost: every input token the request can be billed for, each at the dearest input rate (a
 * cache write costs more than plain input), and its whole output allowance.
 */
export function maxCallCostUsd(model: ChatModel, request: ChatRequest, price: ModelPrice): number {
  return (
    (maxInputTokens(request) * maxInputPerMTok(price) + model.maxOutputTokens(request) * price.outputPerMTok) /
    1_000_000
  );
}

/** go: the call may start (its maximum is reserved); spent: the budget is used up; busy: replies in flight hold the rest. */
export type SpendCheck = 'go' | 'spent' | 'busy';

/**
 * The budget rule: a reply may start while what is settled and what the other replies in flight reserved is
 * below the budget. Each start reserves at most one reply's maximum, so the spend never passes the budget by
 * more than that.
 */
export function spendCheck(budgetUsd: number, settledUsd: number, reservedUsd: number): SpendCheck {
  if (settledUsd >= budgetUsd) return 'spent';
  return settledUsd + reservedUsd >= budgetUsd ? 'busy' : 'go';
}

export interface Reservation {
  experimentId: string;
  threadId: string;
  /** The thread's reply lease the caller holds: the reservation lives as long as the lease. */
  leaseId: string;
  amountUsd: number;
  /** Null: no budget, nothing to reserve. */
  budgetUsd: number | null;
  nowIso: string;
}

/**
 * Reserves a call's maximum against the experiment's budget, ordered against every other reservation of the
 * experiment (the experiment's row lock: the database is the one place every server process shares).
 */
export async function reserveSpend(db: Kysely<DB>, r: Reservation): Promise<SpendCheck> {
  const budget = r.budgetUsd;
  if (budget === null || r.amountUsd <= 0) return 'go';
  return db.transaction().execute(async (trx) => {
    await lockExperimentSpend(trx, r.experimentId);
    const spend = await readExperimentSpend(trx, r.experimentId, r.threadId, r.nowIso);
    const check = spendCheck(budget, spend.settledUsd, spend.reservedUsd);
    if (check === 'go' && !(await setReservation(trx, r.threadId, r.leaseId, r.amountUsd))) {
      // The lease was taken over meanwhile (this holder was presumed dead): its call must not start.
      return 'busy';
    }
    return check;
  });
}
