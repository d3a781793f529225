import { sql, type Kysely, type Transaction } from 'kysely';
import { lockForNoKeyWrite } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { toNumber } from '../../db/values.js';

// An experiment's chat spend, reserved before each model call and settled when the reply is stored
// (docs/decisions/0073). A reservation lives on the thread (`reserved_usd`) and counts only while the thread's
// reply lease is live: a reservation left by a process that died lapses with its lease.

type Db = Kysely<DB>;

/** Orders the experiment's reservations one after another until the transaction ends. */
export async function lockExperimentSpend(trx: Transaction<DB>, experimentId: string): Promise<void> {
  await lockForNoKeyWrite(trx, trx.selectFrom('experiments').select('id').where('id', '=', experimentId));
}

/**
 * The experiment's settled spend (what its stored replies cost) and what the replies in flight of its other
 * threads have reserved (their lease live at `nowIso`), in USD.
 */
export async function readExperimentSpend(
  db: Db,
  experimentId: string,
  exceptThreadId: string,
  nowIso: string,
): Promise<{ settledUsd: number; reservedUsd: number }> {
  const row = await db
    .selectFrom('chat_threads')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number | string>('cost_usd'), sql<number>`0`).as('settled'),
      eb.fn
        .coalesce(
          eb.fn.sum<number | string>(
            eb
              .case()
              .when(
                eb.and([
                  eb('id', '<>', exceptThreadId),
                  eb('reply_lock_id', 'is not', null),
                  eb('reply_lock_until', '>=', nowIso),
                ]),
              )
              .then(eb.ref('reserved_usd'))
              .else(sql<number>`0`)
              .end(),
          ),
          sql<number>`0`,
        )
        .as('reserved'),
    ])
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
  return { settledUsd: toNumber(row?.settled ?? 0), reservedUsd: toNumber(row?.reserved ?? 0) };
}

/** Records the reply's reservation on its thread, while this caller still holds the thread's reply lease. */
export async function setReservation(db: Db, threadId: string, leaseId: string, amountUsd: number): Promise<boolean> {
  const result = await db
    .updateTable('chat_threads')
    .set({ reserved_usd: amountUsd })
    .where('id', '=', threadId)
    .where('reply_lock_id', '=', leaseId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
