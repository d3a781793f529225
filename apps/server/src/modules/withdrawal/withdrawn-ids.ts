import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

// A withdrawn Prolific id is remembered only as a SHA-256 of experiment and id (docs/decisions/0026), so
// the withdrawal keeps no readable id in the data tables and the same id cannot start the experiment again.

export function withdrawnPidHash(experimentId: string, prolificPid: string): string {
  return createHash('sha256').update(`${experimentId}:${prolificPid}`).digest('hex');
}

/** Marks the id withdrawn in the experiment (a repeat is a no-op). */
export async function markWithdrawn(db: Kysely<DB>, experimentId: string, prolificPid: string, now: string) {
  await db
    .insertInto('withdrawn_prolific_ids')
    .values({ experiment_id: experimentId, pid_sha256: withdrawnPidHash(experimentId, prolificPid), withdrawn_at: now })
    .onConflict((oc) => oc.columns(['experiment_id', 'pid_sha256']).doNothing())
    .execute();
}

export async function isWithdrawn(db: Kysely<DB>, experimentId: string, prolificPid: string): Promise<boolean> {
  const row = await db
    .selectFrom('withdrawn_prolific_ids')
    .where('experiment_id', '=', experimentId)
    .where('pid_sha256', '=', withdrawnPidHash(experimentId, prolificPid))
    .select('experiment_id')
    .executeTakeFirst();
  return row !== undefined;
}
