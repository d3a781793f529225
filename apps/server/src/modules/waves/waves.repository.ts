import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { withdrawnPidHash } from '../withdrawal/withdrawn-ids.js';

// Follow-up waves (docs/decisions/0091): the `experiment_waves` and `prolific_participant_groups` tables (owned by
// this module), and the reads of wave 1's assignments the landing check and the participant group need.

type Db = Kysely<DB> | Transaction<DB>;

export function findFollowed(db: Db, experimentId: string): Promise<{ follows_experiment_id: string } | undefined> {
  return db
    .selectFrom('experiment_waves')
    .select('follows_experiment_id')
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
}

/** The experiments that follow this one, with their names. */
export function listFollowers(db: Db, experimentId: string): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('experiment_waves as w')
    .innerJoin('experiments as e', 'e.id', 'w.experiment_id')
    .select(['e.id', 'e.name'])
    .where('w.follows_experiment_id', '=', experimentId)
    .orderBy('e.name')
    .execute();
}

export function experimentName(db: Db, experimentId: string): Promise<{ id: string; name: string } | undefined> {
  return db.selectFrom('experiments').select(['id', 'name']).where('id', '=', experimentId).executeTakeFirst();
}

export async function setFollowed(
  trx: Transaction<DB>,
  row: { experimentId: string; follows: string | null; by: string; at: string },
): Promise<void> {
  await trx.deleteFrom('experiment_waves').where('experiment_id', '=', row.experimentId).execute();
  if (row.follows === null) return;
  await trx
    .insertInto('experiment_waves')
    .values({ experiment_id: row.experimentId, follows_experiment_id: row.follows, set_by: row.by, set_at: row.at })
    .execute();
}

/** Whether real (not test) participants have joined the experiment. */
export async function hasRealParticipants(db: Db, experimentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('assignments')
    .select('id')
    .where('experiment_id', '=', experimentId)
    .where('is_test', '=', false)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Did this Prolific id finish the experiment (a real participant who reached an end), without withdrawing? */
export async function finishedBy(db: Db, experimentId: string, prolificPid: string): Promise<boolean> {
  const row = await db
    .selectFrom('assignments as a')
    .select('a.id')
    .where('a.experiment_id', '=', experimentId)
    .where('a.prolific_pid', '=', prolificPid)
    .where('a.is_test', '=', false)
    .where('a.completed_at', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('withdrawn_prolific_ids as w')
            .select('w.experiment_id')
            .where('w.experiment_id', '=', experimentId)
            .where('w.pid_sha256', '=', withdrawnPidHash(experimentId, prolificPid)),
        ),
      ),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The Prolific ids of the real participants who finished on one of these pathways, without withdrawing. */
export async function completerIds(db: Db, experimentId: string, pathways: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('assignments as a')
    .select('a.prolific_pid')
    .distinct()
    .where('a.experiment_id', '=', experimentId)
    .where('a.is_test', '=', false)
    .where('a.completion_pathway', 'in', [...pathways])
    .where('a.prolific_pid', 'is not', null)
    .orderBy('a.prolific_pid')
    .execute();
  const withdrawn = new Set(
    (
      await db
        .selectFrom('withdrawn_prolific_ids')
        .select('pid_sha256')
        .where('experiment_id', '=', experimentId)
        .execute()
    ).map((w) => w.pid_sha256),
  );
  return rows.flatMap((r) =>
    r.prolific_pid && !withdrawn.has(withdrawnPidHash(experimentId, r.prolific_pid)) ? [r.prolific_pid] : [],
  );
}

export function findGroup(db: Db, experimentId: string) {
  return db
    .selectFrom('prolific_participant_groups')
    .selectAll()
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
}

/** Claims the making of the experiment's group: false when a row is there already (made, or being made). */
export async function claimGroup(
  db: Db,
  row: { experimentId: string; name: string; workspaceId: string; at: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('prolific_participant_groups')
    .values({
      experiment_id: row.experimentId,
      group_id: null,
      name: row.name,
      workspace_id: row.workspaceId,
      participants: 0,
      created_at: row.at,
      updated_at: row.at,
    })
    .onConflict((oc) => oc.column('experiment_id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Takes over a claim left by a request that died mid-way (its `updated_at` unchanged since it was read). */
export async function takeOverClaim(db: Db, experimentId: string, seenAt: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('prolific_participant_groups')
    .set({ updated_at: at })
    .where('experiment_id', '=', experimentId)
    .where('group_id', 'is', null)
    .where('updated_at', '=', seenAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function releaseClaim(db: Db, experimentId: string): Promise<void> {
  await db
    .deleteFrom('prolific_participant_groups')
    .where('experiment_id', '=', experimentId)
    .where('group_id', 'is', null)
    .execute();
}

export async function recordGroup(
  db: Db,
  row: { experimentId: string; groupId: string; participants: number; at: string },
): Promise<void> {
  await db
    .updateTable('prolific_participant_groups')
    .set({ group_id: row.groupId, participants: row.participants, updated_at: row.at })
    .where('experiment_id', '=', row.experimentId)
    .execute();
}
