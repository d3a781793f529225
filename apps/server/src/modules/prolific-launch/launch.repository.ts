import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { toBool } from '../../db/values.js';

// The launch module's queries (docs/decisions/0090-prolific-launch.md). It owns `prolific_launches`; it reads
// `experiments`, `study_versions`, `completion_codes`, `preview_links`, `pilot_runs` and `prolific_link_join` to
// compute the checklist, and writes none of them.

/** The experiment with what the checklist and the draft study need, and its pinned study's definition. */
export function experimentFacts(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('experiments as e')
    .leftJoin('study_versions as v', 'v.id', 'e.study_version_id')
    .select(['e.id', 'e.name', 'e.description', 'e.state', 'e.chat_budget_usd', 'v.definition'])
    .where('e.id', '=', experimentId)
    .executeTakeFirst();
}

export async function codesOf(db: Kysely<DB>, experimentId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('completion_codes')
    .select(['pathway', 'code'])
    .where('experiment_id', '=', experimentId)
    .execute();
  return new Map(rows.map((r) => [r.pathway, r.code]));
}

/** Whether someone walked the study before launch: a preview link was used, or a pilot ran. */
export async function previewWalked(
  db: Kysely<DB>,
  experimentId: string,
): Promise<{ previews: number; pilots: number }> {
  const previews = await db
    .selectFrom('preview_links')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('experiment_id', '=', experimentId)
    .where('used_at', 'is not', null)
    .executeTakeFirstOrThrow();
  const pilots = await db
    .selectFrom('pilot_runs')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('experiment_id', '=', experimentId)
    .executeTakeFirstOrThrow();
  return { previews: Number(previews.n), pilots: Number(pilots.n) };
}

export async function linkJoinEnabled(db: Kysely<DB>, experimentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('prolific_link_join')
    .select('enabled')
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
  return row !== undefined && toBool(row.enabled);
}

export function readLaunch(db: Kysely<DB>, experimentId: string) {
  return db.selectFrom('prolific_launches').selectAll().where('experiment_id', '=', experimentId).executeTakeFirst();
}

/** Claims the experiment's launch before Prolific is called: false when a launch exists or is under way. */
export async function claimLaunch(
  db: Kysely<DB>,
  input: { experimentId: string; by: string; at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('prolific_launches')
    .values({
      experiment_id: input.experimentId,
      state: 'creating',
      credentials: 0,
      launched_by: input.by,
      updated_at: input.at,
    })
    .onConflict((oc) => oc.column('experiment_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Gives up a claim whose study Prolific did not create, so the researcher may launch again. */
export async function releaseLaunch(db: Kysely<DB>, experimentId: string): Promise<void> {
  await db
    .deleteFrom('prolific_launches')
    .where('experiment_id', '=', experimentId)
    .where('state', '=', 'creating')
    .execute();
}

export async function recordDraft(
  db: Kysely<DB>,
  input: { experimentId: string; studyId: string; studyUrl: string; credentials: number; at: string },
): Promise<void> {
  await db
    .updateTable('prolific_launches')
    .set({
      state: 'draft',
      study_id: input.studyId,
      study_url: input.studyUrl,
      credentials: input.credentials,
      launched_at: input.at,
      updated_at: input.at,
    })
    .where('experiment_id', '=', input.experimentId)
    .where('state', '=', 'creating')
    .execute();
}

/** Moves a launch from one state to another; false when it was not in `from` (another request moved it first). */
export async function moveLaunch(
  db: Kysely<DB>,
  input: { experimentId: string; from: string; to: string; at: string; published?: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable('prolific_launches')
    .set({ state: input.to, updated_at: input.at, ...(input.published ? { published_at: input.at } : {}) })
    .where('experiment_id', '=', input.experimentId)
    .where('state', '=', input.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes a draft launch whose study is no longer the experiment's link; false when another request did first. */
export async function dropUnlinkedDraft(db: Kysely<DB>, experimentId: string, studyId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('prolific_launches')
    .where('experiment_id', '=', experimentId)
    .where('state', '=', 'draft')
    .where('study_id', '=', studyId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
