import {
  PostgresAdapter,
  type CompiledQuery,
  type Insertable,
  type Kysely,
  type SelectQueryBuilder,
  type Updateable,
} from 'kysely';
import type { Pathway } from '@studychat/contracts';
import { compiledOnce } from '../../db/compiled-once.js';
import type { AssignmentRow, AssignmentsTable, DB } from '../../db/schema.js';
import type { ActiveSession, SessionProbe } from '../auth/session-check.js';
import { activeSessionColumn, toActiveSession } from '../auth/session.repository.js';

/** What the completion status shows of an assignment. */
export type CompletionColumns = Pick<AssignmentRow, 'completed_at' | 'completion_pathway' | 'completion_code'>;

const fromAssignments = (db: Kysely<DB>) => db.selectFrom('assignments');

/**
 * The participant's assignment in an experiment, with the columns `pick` selects: one statement per `name`, built
 * once per dialect (db/compiled-once.ts). Undefined before they joined.
 */
async function participantAssignment<R>(
  db: Kysely<DB>,
  name: string,
  pick: (query: ReturnType<typeof fromAssignments>) => SelectQueryBuilder<DB, 'assignments', R>,
  userId: string,
  experimentId: string,
): Promise<R | undefined> {
  const statement = compiledOnce(
    db,
    name,
    (user, experiment) =>
      pick(fromAssignments(db)).where('user_id', '=', user).where('experiment_id', '=', experiment).compile(),
    [userId, experimentId],
  );
  return (await db.executeQuery(statement)).rows[0];
}

/** The completion columns of the participant's assignment: every study page's status read, so only what it shows. */
export function findCompletion(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
): Promise<CompletionColumns | undefined> {
  return participantAssignment(
    db,
    'findCompletion',
    (q) => q.select(['completed_at', 'completion_pathway', 'completion_code']),
    userId,
    experimentId,
  );
}

/** The participant's assignment in an experiment. */
export function findAssignment(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
): Promise<AssignmentRow | undefined> {
  return participantAssignment(db, 'findAssignment', (q) => q.selectAll(), userId, experimentId);
}

/**
 * The assignment with the caller's session as the same statement saw it (a folded session check, docs/decisions
 * 0058): `session` undefined when it is not active. No row before the participant joined (the check stays pending).
 */
export async function findAssignmentChecking(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
  probe: SessionProbe,
): Promise<{ row: AssignmentRow; session: ActiveSession | undefined } | undefined> {
  const found = await db
    .selectFrom('assignments')
    .selectAll()
    .select(activeSessionColumn(probe).as('f_session'))
    .where('user_id', '=', userId)
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
  if (!found) return undefined;
  const { f_session, ...row } = found;
  return { row, session: toActiveSession(f_session) };
}

/**
 * The assignment, locked for the rest of the transaction so one participant's journey writes run one at a
 * time: PostgreSQL locks the row (SELECT ... FOR UPDATE); SQLite already runs one writing transaction at once.
 */
export function lockAssignment(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
): Promise<AssignmentRow | undefined> {
  const query = db
    .selectFrom('assignments')
    .selectAll()
    .where('user_id', '=', userId)
    .where('experiment_id', '=', experimentId);
  return (db.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query).executeTakeFirst();
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
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return db
    .insertInto('assignments')
    .values((eb) => {
      const pin = eb
        .selectFrom('experiments')
        .select('experiments.study_version_id')
        .where('experiments.id', '=', row.experiment_id);
      return { ...row, study_version_id: pg ? pin.forKeyShare() : pin };
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

/**
 * Consent recorded on an assignment without it, returning the row (none: already recorded): to run with the
 * step's event (StepContext.writeWithEvent). Built once per dialect (db/compiled-once.ts).
 */
export function assignmentConsentUpdate(db: Kysely<DB>, id: string, at: string): CompiledQuery<AssignmentRow> {
  return compiledOnce(
    db,
    'assignmentConsent',
    (given, consentAt, updatedAt, assignmentId) =>
      db
        .updateTable('assignments')
        .set({ consent_given: given as unknown as boolean, consent_timestamp: consentAt, updated_at: updatedAt })
        .where('id', '=', assignmentId)
        .where('consent_timestamp', 'is', null)
        .returningAll()
        .compile(),
    [true, at, at, id],
  );
}

/**
 * Completion recorded on an assignment without it, with the experiment's code for the pathway (read in the
 * same statement; null when unset), returning the row (none: already recorded): to run with the step's event.
 * "Intervention completed" is set for `complete` only. Built once per dialect.
 */
export function assignmentCompletionUpdate(
  db: Kysely<DB>,
  input: { id: string; experimentId: string; pathway: Pathway; at: string },
): CompiledQuery<AssignmentRow> {
  return compiledOnce(
    db,
    'assignmentCompletion',
    (pathway, experimentId, codePathway, completedAt, interventionAt, updatedAt, assignmentId) =>
      db
        .updateTable('assignments')
        .set((eb) => ({
          completion_pathway: pathway,
          completion_code: eb
            .selectFrom('completion_codes')
            .select('code')
            .where('experiment_id', '=', experimentId)
            .where('pathway', '=', codePathway),
          completed_at: completedAt,
          intervention_completed_timestamp: interventionAt,
          updated_at: updatedAt,
        }))
        .where('id', '=', assignmentId)
        .where('completed_at', 'is', null)
        .returningAll()
        .compile(),
    [
      input.pathway,
      input.experimentId,
      input.pathway,
      input.at,
      input.pathway === 'complete' ? input.at : null,
      input.at,
      input.id,
    ],
  );
}

/**
 * The condition recorded on an assignment without one, returning the row (none: already assigned): to run
 * with the step's event (StepContext.writeWithEvent). Built once per dialect.
 */
export function assignmentConditionUpdate(
  db: Kysely<DB>,
  input: { id: string; condition: string; stratum: string; at: string },
): CompiledQuery<AssignmentRow> {
  return compiledOnce(
    db,
    'assignmentCondition',
    (condition, stratum, assignedAt, updatedAt, assignmentId) =>
      db
        .updateTable('assignments')
        .set({ assigned_condition: condition, stratum, condition_assigned_at: assignedAt, updated_at: updatedAt })
        .where('id', '=', assignmentId)
        .where('assigned_condition', 'is', null)
        .returningAll()
        .compile(),
    [input.condition, input.stratum, input.at, input.at, input.id],
  );
}
