import type { Kysely, Transaction } from 'kysely';
import { lockForWrite } from '../../db/dialect.js';
import type { DB, LlmTurnsTable } from '../../db/schema.js';
import { toIso, toNumber } from '../../db/values.js';

// The provider's shared rate limit (docs/decisions/0076): every server process takes its replies' turns from these
// rows, ordered by the provider's row lock, so the limit holds however many processes share the database.

type Db = Kysely<DB>;

/** What a turn's grant is decided on, read under the provider's lock. */
export interface QueueState {
  pausedUntil: string | null;
  /** Live turns (their thread's reply lease is still theirs), and done ones of the last minute. */
  turns: { id: string; seq: number; state: LlmTurnsTable['state']; tokens: number; grantedAt: string | null }[];
}

/** Orders every change to the provider's queue one after another until the transaction ends. */
async function lockProvider(trx: Transaction<DB>, provider: string): Promise<void> {
  await trx
    .insertInto('llm_providers')
    .values({ provider, paused_until: null })
    .onConflict((oc) => oc.column('provider').doNothing())
    .execute();
  await lockForWrite(trx, trx.selectFrom('llm_providers').select('provider').where('provider', '=', provider));
}

/**
 * Runs `step` with the provider's queue locked: first the turns whose holder is gone (their thread's reply lease
 * lapsed or passed to another request) and the done ones older than the window are deleted, then the rest read.
 */
export async function withQueue<T>(
  db: Db,
  provider: string,
  now: { iso: string; windowStartIso: string },
  step: (trx: Transaction<DB>, state: QueueState) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockProvider(trx, provider);
    await trx
      .deleteFrom('llm_turns')
      .where('provider', '=', provider)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'done'), eb('granted_at', '<', now.windowStartIso)]),
          eb.and([
            eb('state', '<>', 'done'),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('chat_threads as t')
                  .select('t.id')
                  .whereRef('t.id', '=', 'llm_turns.thread_id')
                  .whereRef('t.reply_lock_id', '=', 'llm_turns.lease_id')
                  .where('t.reply_lock_until', '>=', now.iso),
              ),
            ),
          ]),
        ]),
      )
      .execute();
    const provRow = await trx
      .selectFrom('llm_providers')
      .select('paused_until')
      .where('provider', '=', provider)
      .executeTakeFirst();
    const rows = await trx
      .selectFrom('llm_turns')
      .select(['id', 'seq', 'state', 'tokens', 'granted_at'])
      .where('provider', '=', provider)
      .orderBy('seq')
      .execute();
    return step(trx, {
      pausedUntil: provRow?.paused_until ? toIso(provRow.paused_until) : null,
      turns: rows.map((r) => ({
        id: r.id,
        seq: toNumber(r.seq),
        state: r.state,
        tokens: toNumber(r.tokens),
        grantedAt: r.granted_at === null ? null : toIso(r.granted_at),
      })),
    });
  });
}

/** A new turn at the end of the queue. */
export async function insertTurn(
  trx: Transaction<DB>,
  turn: { id: string; provider: string; seq: number; threadId: string; leaseId: string; tokens: number },
): Promise<void> {
  await trx
    .insertInto('llm_turns')
    .values({
      id: turn.id,
      provider: turn.provider,
      seq: turn.seq,
      thread_id: turn.threadId,
      lease_id: turn.leaseId,
      state: 'waiting',
      tokens: turn.tokens,
      granted_at: null,
    })
    .execute();
}

export async function setTurn(
  db: Db | Transaction<DB>,
  id: string,
  changes: { state: LlmTurnsTable['state']; grantedAt?: string; tokens?: number },
): Promise<void> {
  await db
    .updateTable('llm_turns')
    .set({
      state: changes.state,
      ...(changes.grantedAt !== undefined ? { granted_at: changes.grantedAt } : {}),
      ...(changes.tokens !== undefined ? { tokens: changes.tokens } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** The provider asked every caller to wait until then (retry-after): a later pause wins. */
export async function pauseProvider(trx: Transaction<DB>, provider: string, untilIso: string): Promise<void> {
  await trx
    .updateTable('llm_providers')
    .set({ paused_until: untilIso })
    .where('provider', '=', provider)
    .where((eb) => eb.or([eb('paused_until', 'is', null), eb('paused_until', '<', untilIso)]))
    .execute();
}
