import type { Kysely } from 'kysely';
import type { DB, SectionViewRow } from '../../db/schema.js';

/** The participant's section records in this assignment, by section index. */
export function listSectionViews(db: Kysely<DB>, assignmentId: string): Promise<SectionViewRow[]> {
  return db
    .selectFrom('section_views')
    .selectAll()
    .where('assignment_id', '=', assignmentId)
    .orderBy('section_index')
    .execute();
}

/** A section's record as it is opened (nothing finished yet). */
export type OpenedSectionView = SectionViewRow & {
  opened_at: string;
  finished_at: null;
  visible_seconds: null;
  hidden_seconds: null;
};

/** Stores an opened section's record. */
export async function insertSectionView(db: Kysely<DB>, row: OpenedSectionView): Promise<void> {
  await db.insertInto('section_views').values(row).execute();
}

/** Finishes a section's record; whether it was found. */
export async function finishSectionView(
  db: Kysely<DB>,
  id: string,
  finish: { finishedAt: string; visibleSeconds: number; hiddenSeconds: number },
): Promise<boolean> {
  const result = await db
    .updateTable('section_views')
    .set({
      finished_at: finish.finishedAt,
      visible_seconds: finish.visibleSeconds,
      hidden_seconds: finish.hiddenSeconds,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
