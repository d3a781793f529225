import type { CompiledQuery, Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
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
export type OpenedSectionView = SectionViewRow & { finished_at: null; visible_seconds: null; hidden_seconds: null };

/**
 * The insert of an opened section's record, returning its id: to run with the step's event
 * (StepContext.writeWithEvent). Built once per dialect (db/compiled-once.ts).
 */
export function sectionViewInsert(db: Kysely<DB>, row: OpenedSectionView): CompiledQuery<{ id: string }> {
  return compiledOnce(
    db,
    'sectionViewInsert',
    (id, assignmentId, userId, experimentId, condition, sectionIndex, sectionId, minSeconds, openedAt, versionId) =>
      db
        .insertInto('section_views')
        .values({
          id,
          assignment_id: assignmentId,
          user_id: userId,
          experiment_id: experimentId,
          condition,
          section_index: sectionIndex as unknown as number,
          section_id: sectionId,
          min_seconds: minSeconds as unknown as number,
          opened_at: openedAt,
          study_version_id: versionId,
        })
        .returning('id')
        .compile(),
    [
      row.id,
      row.assignment_id,
      row.user_id,
      row.experiment_id,
      row.condition,
      row.section_index,
      row.section_id,
      row.min_seconds,
      row.opened_at,
      row.study_version_id,
    ],
  );
}

/**
 * The update that finishes a section's record, returning its id: to run with the step's event
 * (StepContext.writeWithEvent). Built once per dialect.
 */
export function sectionViewFinish(
  db: Kysely<DB>,
  id: string,
  finish: { finishedAt: string; visibleSeconds: number; hiddenSeconds: number },
): CompiledQuery<{ id: string }> {
  return compiledOnce(
    db,
    'sectionViewFinish',
    (finishedAt, visibleSeconds, hiddenSeconds, viewId) =>
      db
        .updateTable('section_views')
        .set({
          finished_at: finishedAt,
          visible_seconds: visibleSeconds as unknown as number,
          hidden_seconds: hiddenSeconds as unknown as number,
        })
        .where('id', '=', viewId)
        .returning('id')
        .compile(),
    [finish.finishedAt, finish.visibleSeconds, finish.hiddenSeconds, id],
  );
}
