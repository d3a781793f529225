import type { Insertable, Kysely, Updateable } from 'kysely';
import type { AssignmentRow, AssignmentsTable, DB } from '../../db/schema.js';

export function findAssignment(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
): Promise<AssignmentRow | undefined> {
  return db
    .selectFrom('assignments')
    .selectAll()
    .where('user_id', '=', userId)
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
}

export function findAssignmentById(db: Kysely<DB>, id: string): Promise<AssignmentRow | undefined> {
  return db.selectFrom('assignments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The Prolific ids already recorded for this login, in any experiment. */
export async function prolificIdsOfUser(db: Kysely<DB>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('assignments')
    .select('prolific_pid')
    .where('user_id', '=', userId)
    .where('prolific_pid', 'is not', null)
    .execute();
  return rows.flatMap((r) => (r.prolific_pid === null ? [] : [r.prolific_pid]));
}

/** Inserts unless this user already has an assignment for the experiment; true when inserted. */
export async function insertAssignmentOnce(db: Kysely<DB>, row: Insertable<AssignmentsTable>): Promise<boolean> {
  const result = await db
    .insertInto('assignments')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'experiment_id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/**
 * Updates the assignment only while `unsetColumn` is still null, so a value once written never
 * changes (consent time, Prolific id, condition, completion). True when this call wrote it.
 */
export async function updateAssignmentIfUnset(
  db: Kysely<DB>,
  id: string,
  unsetColumn: 'consent_timestamp' | 'prolific_pid' | 'assigned_condition' | 'completed_at',
  changes: Updateable<AssignmentsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('assignments')
    .set(changes)
    .where('id', '=', id)
    .where(unsetColumn, 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
