import type { Kysely } from 'kysely';
import type { Condition } from '@studychat/contracts';
import type { DB } from '../../db/schema.js';

export interface FreeSlot {
  id: string;
  condition: string;
}

/**
 * The lowest unclaimed slot of the stratum's randomisation list holding one of the study's conditions, if any.
 * A slot of a condition the version does not declare cannot be written (slots come from real participants,
 * whose first join locks the pin), but would be passed over rather than assigned.
 */
export function nextFreeSlot(
  db: Kysely<DB>,
  experimentId: string,
  stratum: string,
  conditions: readonly Condition[],
): Promise<FreeSlot | undefined> {
  return db
    .selectFrom('allocation_slots')
    .select(['id', 'condition'])
    .where('experiment_id', '=', experimentId)
    .where('stratum', '=', stratum)
    .where('assignment_id', 'is', null)
    .where('condition', 'in', [...conditions])
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Appends one block to the stratum's list after its current end. Two processes appending at once
 * collide on the unique (experiment_id, stratum, seq) key; the loser's transaction fails and retries.
 */
export async function appendBlock(
  db: Kysely<DB>,
  input: { experimentId: string; stratum: string; conditions: Condition[]; now: string; newId: () => string },
): Promise<void> {
  const last = await db
    .selectFrom('allocation_slots')
    .select((eb) => [eb.fn.max('seq').as('seq'), eb.fn.max('block_index').as('block')])
    .where('experiment_id', '=', input.experimentId)
    .where('stratum', '=', input.stratum)
    .executeTakeFirst();
  const lastSeq = last?.seq === null || last?.seq === undefined ? 0 : Number(last.seq);
  const blockIndex = last?.block === null || last?.block === undefined ? 0 : Number(last.block) + 1;
  await db
    .insertInto('allocation_slots')
    .values(
      input.conditions.map((condition, i) => ({
        id: input.newId(),
        experiment_id: input.experimentId,
        stratum: input.stratum,
        block_index: blockIndex,
        seq: lastSeq + 1 + i,
        condition,
        assignment_id: null,
        created_at: input.now,
        claimed_at: null,
      })),
    )
    .execute();
}

/** Claims a slot if it is still free; false when another assignment took it first. */
export async function claimSlot(db: Kysely<DB>, slotId: string, assignmentId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('allocation_slots')
    .set({ assignment_id: assignmentId, claimed_at: now })
    .where('id', '=', slotId)
    .where('assignment_id', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
