import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Pathway } from '@studychat/contracts';
import { forKeyShare } from '../../db/dialect.js';
import { hotRead } from '../../db/hot-read.js';
import type { AssignmentRow, AssignmentsTable, DB } from '../../db/schema.js';

import type { CompletionColumns } from '../journey/assignment.mapper.js';

const completionRead = hotRead('findCompletion', ['userId', 'experimentId'], (db, p) =>
  db
    .selectFrom('assignments')
    .select(['completed_at', 'completion_pathway', 'completion_code'])
    .where('user_id', '=', p.userId)
    .where('experiment_id', '=', p.experimentId)
    .compile(),
);

/** The completion columns of the participant's assignment: every study page's status read, so only what it shows. */
export async function findCompletion(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
): Promise<CompletionColumns | undefined> {
  return (await completionRead(db, { userId, experimentId }))[0];
}

const assignmentRead = hotRead('findAssignment', ['userId', 'experimentId'], (db, p) =>
  db
    .selectFrom('assignments')
    .selectAll()
    .where('user_id', '=', p.userId)
    .where('experiment_id', '=', p.experimentId)
    .compile(),
);

/** The participant's assignment in an experiment. */
export async function findAssignment(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
): Promise<AssignmentRow | undefined> {
  return (await assignmentRead(db, { userId, experimentId }))[0];
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

/**
 * Inserts unless this user already has an assignment for the experiment; the inserted row (RETURNING), or
 * undefined when there was one. The row is stamped with the study version its experiment pins, in the
 * same statement. On PostgreSQL the pin is read FOR KEY SHARE: a re-pin holding the experiment row (FOR
 * UPDATE) is waited for and its new pin is read (READ COMMITTED re-reads a row it waited for), so the stamp
 * is always the pin the experiment keeps (docs/decisions/0063).
 */
export function insertAssignmentOnce(
  db: Kysely<DB>,
  row: Insertable<AssignmentsTable>,
): Promise<AssignmentRow | undefined> {
  return db
    .insertInto('assignments')
    .values((eb) => {
      const pin = eb
        .selectFrom('experiments')
        .select('experiments.study_version_id')
        .where('experiments.id', '=', row.experiment_id);
      return { ...row, study_version_id: forKeyShare(db, pin) };
    })
    .onConflict((oc) => oc.columns(['user_id', 'experiment_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Claims the Prolific id for this assignment in its experiment; false when another assignment holds it
 * (the primary key decides, so two logins racing with one id cannot both win).
 */
export async function claimProlificId(
  db: Kysely<DB>,
  claim: { experimentId: string; prolificPid: string; assignmentId: string; userId: string; now: string },
): Promise<boolean> {
  const result = await db
    .insertInto('experiment_prolific_ids')
    .values({
      experiment_id: claim.experimentId,
      prolific_pid: claim.prolificPid,
      assignment_id: claim.assignmentId,
      user_id: claim.userId,
      created_at: claim.now,
    })
    .onConflict((oc) => oc.columns(['experiment_id', 'prolific_pid']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/**
 * Updates the assignment only while `unsetColumn` is still null, so a value once written never
 * changes (consent time, Prolific id, condition, completion). The row as written when this call wrote
 * it (RETURNING: no read after the write), undefined otherwise.
 */
export function updateAssignmentIfUnset(
  db: Kysely<DB>,
  id: string,
  unsetColumn: 'consent_timestamp' | 'prolific_pid' | 'assigned_condition' | 'completed_at',
  changes: Updateable<AssignmentsTable>,
): Promise<AssignmentRow | undefined> {
  return db
    .updateTable('assignments')
    .set(changes)
    .where('id', '=', id)
    .where(unsetColumn, 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Consent recorded on an assignment without it; the row as written (none: already recorded). */
export function recordConsent(db: Kysely<DB>, id: string, at: string): Promise<AssignmentRow | undefined> {
  return db
    .updateTable('assignments')
    .set({ consent_given: true, consent_timestamp: at, updated_at: at })
    .where('id', '=', id)
    .where('consent_timestamp', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Completion recorded on an assignment without it, with the experiment's code for the pathway (read in the
 * same statement; null when unset); the row as written (none: already recorded). "Intervention completed" is
 * set for `complete` only.
 */
export function recordCompletionOf(
  db: Kysely<DB>,
  /** `pathway`: the built-in study's, or a flow's pathway key (issue 30). */
  input: { id: string; experimentId: string; pathway: Pathway | (string & {}); at: string },
): Promise<AssignmentRow | undefined> {
  return db
    .updateTable('assignments')
    .set((eb) => ({
      completion_pathway: input.pathway,
      completion_code: eb
        .selectFrom('completion_codes')
        .select('code')
        .where('experiment_id', '=', input.experimentId)
        .where('pathway', '=', input.pathway),
      completed_at: input.at,
      intervention_completed_timestamp: input.pathway === 'complete' ? input.at : null,
      updated_at: input.at,
    }))
    .where('id', '=', input.id)
    .where('completed_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** The condition recorded on an assignment without one; the row as written (none: already assigned). */
export function recordCondition(
  db: Kysely<DB>,
  input: { id: string; condition: string; stratum: string; at: string },
): Promise<AssignmentRow | undefined> {
  return db
    .updateTable('assignments')
    .set({
      assigned_condition: input.condition,
      stratum: input.stratum,
      condition_assigned_at: input.at,
      updated_at: input.at,
    })
    .where('id', '=', input.id)
    .where('assigned_condition', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
