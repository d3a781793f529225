import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The participants of an experiment whose runs are tests ("preview as participant", docs/decisions/0045). */
export async function listTestRunUserIds(db: Kysely<DB>, experimentId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('assignments')
    .select('user_id')
    .where('experiment_id', '=', experimentId)
    .where('is_test', '=', true)
    .execute();
  return new Set(rows.map((r) => r.user_id));
}
