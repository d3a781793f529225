import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

// The flow's own records (issue 30): the steps no other table records. Written only inside the flow gate's
// transaction (journey/flow-gate.ts), which holds the participant's row.

export interface NewStepRecord {
  id: string;
  assignmentId: string;
  stepId: string;
  stepType: string;
  data: Record<string, unknown>;
  /** Null for a record not done yet (an AI text generated, not confirmed). */
  doneAt: string | null;
  now: string;
}

export async function insertStepRecord(db: Kysely<DB>, record: NewStepRecord): Promise<void> {
  await db
    .insertInto('step_records')
    .values({
      id: record.id,
      assignment_id: record.assignmentId,
      step_id: record.stepId,
      step_type: record.stepType,
      data: JSON.stringify(record.data),
      done_at: record.doneAt,
      created_at: record.now,
      updated_at: record.now,
    })
    .execute();
}

/** Rewrites a record's data and marks it done (an AI text confirmed). */
export function completeStepRecord(
  db: Kysely<DB>,
  input: { assignmentId: string; stepId: string; data: Record<string, unknown>; now: string },
): Promise<boolean> {
  return updateOpenStepRecord(db, { ...input, doneAt: input.now });
}

/** Rewrites the data of a record not done yet, marking it done when `doneAt` is given (a reading step's sections). */
export async function updateOpenStepRecord(
  db: Kysely<DB>,
  input: { assignmentId: string; stepId: string; data: Record<string, unknown>; doneAt: string | null; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('step_records')
    .set({ data: JSON.stringify(input.data), done_at: input.doneAt, updated_at: input.now })
    .where('assignment_id', '=', input.assignmentId)
    .where('step_id', '=', input.stepId)
    .where('done_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
