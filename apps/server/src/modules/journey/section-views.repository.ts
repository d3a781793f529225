import type { Insertable, Kysely } from 'kysely';
import type { DB, SectionViewRow, SectionViewsTable } from '../../db/schema.js';

/** The participant's section records in this assignment, by section index. */
export function listSectionViews(db: Kysely<DB>, assignmentId: string): Promise<SectionViewRow[]> {
  return db
    .selectFrom('section_views')
    .selectAll()
    .where('assignment_id', '=', assignmentId)
    .orderBy('section_index')
    .execute();
}

export async function insertSectionView(db: Kysely<DB>, row: Insertable<SectionViewsTable>): Promise<void> {
  await db.insertInto('section_views').values(row).execute();
}

export async function finishSectionView(
  db: Kysely<DB>,
  id: string,
  finish: { finishedAt: string; visibleSeconds: number; hiddenSeconds: number },
): Promise<void> {
  await db
    .updateTable('section_views')
    .set({
      finished_at: finish.finishedAt,
      visible_seconds: finish.visibleSeconds,
      hidden_seconds: finish.hiddenSeconds,
    })
    .where('id', '=', id)
    .execute();
}
