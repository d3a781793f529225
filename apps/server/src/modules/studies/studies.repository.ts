import type { Expression, ExpressionBuilder, Insertable, Kysely, Updateable } from 'kysely';
import { forUpdate } from '../../db/dialect.js';
import type { DB, StudyVersionRow, StudyVersionsTable } from '../../db/schema.js';
import { toNumber } from '../../db/values.js';

/** A version row with how many experiments pin it and whether a participant ran it (locked). */
export interface StudyVersionListRow extends StudyVersionRow {
  experiments: number;
  locked: boolean;
}

/**
 * True once a real participant was stamped with this version, or joined (or withdrew from) an experiment
 * pinning it. Test runs ("preview as participant", is_test) do not lock it: a researcher previews, edits and
 * previews again (docs/decisions/0045).
 */
export async function isVersionLocked(db: Kysely<DB>, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('study_versions')
    .select((eb) =>
      eb
        .or([
          eb.exists(
            eb
              .selectFrom('assignments')
              .select('assignments.id')
              .where('assignments.is_test', '=', false)
              .where('assignments.study_version_id', '=', id),
          ),
          eb.exists(
            eb
              .selectFrom('experiments')
              .select('experiments.id')
              .where('experiments.study_version_id', '=', id)
              .where((e) =>
                e.or([realParticipantsOf(e, e.ref('experiments.id')), withdrawalsOf(e, e.ref('experiments.id'))]),
              ),
          ),
        ])
        .as('locked'),
    )
    .where('study_versions.id', '=', id)
    .executeTakeFirst();
  return Boolean(row?.locked);
}

export async function listVersionRows(db: Kysely<DB>): Promise<StudyVersionListRow[]> {
  const rows = await db
    .selectFrom('study_versions')
    .selectAll('study_versions')
    .select((eb) => [
      eb
        .selectFrom('experiments')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('experiments.study_version_id', '=', 'study_versions.id')
        .as('experiments'),
      eb
        .exists(
          eb
            .selectFrom('assignments')
            .select('assignments.id')
            .where('assignments.is_test', '=', false)
            .whereRef('assignments.study_version_id', '=', 'study_versions.id'),
        )
        .as('stamped'),
      eb
        .exists(
          eb
            .selectFrom('assignments')
            .innerJoin('experiments', 'experiments.id', 'assignments.experiment_id')
            .select('assignments.id')
            .where('assignments.is_test', '=', false)
            .whereRef('experiments.study_version_id', '=', 'study_versions.id'),
        )
        .as('joined'),
    ])
    .orderBy('study_versions.created_at', 'desc')
    .orderBy('study_versions.id')
    .execute();
  return rows.map(({ stamped, joined, experiments, ...row }) => ({
    ...row,
    experiments: toNumber((experiments as number | string | null) ?? 0),
    locked: Boolean(stamped) || Boolean(joined),
  }));
}

export function findVersionRow(db: Kysely<DB>, id: string): Promise<StudyVersionRow | undefined> {
  return db.selectFrom('study_versions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The version row, locked for the rest of the transaction (PostgreSQL: SELECT ... FOR UPDATE) before an edit
 * checks whether it is in use. A participant's assignment insert references the version by foreign key, whose
 * check takes FOR KEY SHARE on this row: the two conflict, so an edit and a first join run one after the other
 * and the edit's in-use check (a later statement, a fresh snapshot under READ COMMITTED) sees a join that
 * committed first (docs/decisions/0063). SQLite runs one transaction at a time (one connection per process).
 */
export function lockVersionRow(db: Kysely<DB>, id: string): Promise<StudyVersionRow | undefined> {
  const query = db.selectFrom('study_versions').selectAll().where('id', '=', id);
  return forUpdate(db, query).executeTakeFirst();
}

export async function insertVersionRow(db: Kysely<DB>, row: Insertable<StudyVersionsTable>): Promise<void> {
  await db.insertInto('study_versions').values(row).execute();
}

/** Inserts the row unless one with its id exists. */
export async function insertVersionRowOnce(db: Kysely<DB>, row: Insertable<StudyVersionsTable>): Promise<void> {
  await db
    .insertInto('study_versions')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function updateVersionRow(
  db: Kysely<DB>,
  id: string,
  changes: Updateable<StudyVersionsTable>,
): Promise<void> {
  await db.updateTable('study_versions').set(changes).where('id', '=', id).execute();
}

/** Experiments without a pinned version get this one. */
export async function pinUnpinnedExperiments(db: Kysely<DB>, versionId: string): Promise<void> {
  await db
    .updateTable('experiments')
    .set({ study_version_id: versionId })
    .where('study_version_id', 'is', null)
    .execute();
}

/** The experiment's pinned version with its definition text; undefined for an unknown experiment. */
export async function findExperimentStudy(
  db: Kysely<DB>,
  experimentId: string,
): Promise<{ versionId: string | null; definition: string | null; locked: boolean } | undefined> {
  const row = await db
    .selectFrom('experiments')
    .leftJoin('study_versions', 'study_versions.id', 'experiments.study_version_id')
    .select((eb) => [
      'experiments.study_version_id as versionId',
      'study_versions.definition as definition',
      eb
        .or([realParticipantsOf(eb, eb.ref('experiments.id')), withdrawalsOf(eb, eb.ref('experiments.id'))])
        .as('locked'),
    ])
    .where('experiments.id', '=', experimentId)
    .executeTakeFirst();
  return row ? { versionId: row.versionId, definition: row.definition, locked: Boolean(row.locked) } : undefined;
}

/** Whether the experiment has a real participant (a preview's test run does not count). */
function realParticipantsOf(eb: ExpressionBuilder<DB, 'experiments'>, experimentId: Expression<string>) {
  return eb.exists(
    eb
      .selectFrom('assignments')
      .select('assignments.id')
      .where('assignments.experiment_id', '=', experimentId)
      .where('assignments.is_test', '=', false),
  );
}

/**
 * Whether a participant of the experiment withdrew: their data is gone, but they ran the pinned version, so
 * the experiment stays locked (and a process that cached its study as locked is never wrong).
 */
function withdrawalsOf(eb: ExpressionBuilder<DB, 'experiments'>, experimentId: Expression<string>) {
  return eb.exists(
    eb
      .selectFrom('withdrawn_prolific_ids')
      .select('withdrawn_prolific_ids.experiment_id')
      .where('withdrawn_prolific_ids.experiment_id', '=', experimentId),
  );
}

/**
 * Whether real participants (not test runs) joined the experiment, or one withdrew: then its study version
 * cannot change.
 */
export async function experimentHasParticipants(db: Kysely<DB>, experimentId: string): Promise<boolean> {
  const row = await findExperimentStudy(db, experimentId);
  return row?.locked === true;
}

/**
 * Whether the experiment exists, its row locked for the rest of the transaction (PostgreSQL: FOR UPDATE) before
 * a re-pin checks for participants. An assignment insert reads the pin with FOR KEY SHARE on this row, which
 * waits for the re-pin and then reads the new pin; a re-pin waits for a join that locked first, and its
 * participant check then sees it (docs/decisions/0063).
 */
export async function lockExperimentRow(db: Kysely<DB>, experimentId: string): Promise<boolean> {
  const query = db.selectFrom('experiments').select('experiments.id').where('experiments.id', '=', experimentId);
  const row = await forUpdate(db, query).executeTakeFirst();
  return row !== undefined;
}

export async function pinExperimentVersion(
  db: Kysely<DB>,
  experimentId: string,
  versionId: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('experiments')
    .set({ study_version_id: versionId, updated_at: now })
    .where('id', '=', experimentId)
    .execute();
}

export async function countPinningExperiments(db: Kysely<DB>, versionId: string): Promise<number> {
  const row = await db
    .selectFrom('experiments')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('study_version_id', '=', versionId)
    .executeTakeFirstOrThrow();
  return toNumber(row.n as number | string);
}

/** Whether any assignment (a test run included) was stamped with the version. */
export async function versionEverRun(db: Kysely<DB>, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('assignments')
    .select('id')
    .where('study_version_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteVersionRow(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('study_versions').where('id', '=', id).execute();
}
