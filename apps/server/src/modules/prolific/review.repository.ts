import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

// Review on Prolific (docs/decisions/0086-prolific-link-join.md, "Review: approve by pathway"): the submissions of
// an experiment's participants on one pathway that Prolific says await review, claimed before Prolific is called.

/**
 * Marks approved, in one statement, the submissions awaiting review of the experiment's participants on this
 * pathway, and answers them: a second click or a request at the same time finds none left to claim.
 */
export function claimAwaitingReview(db: Kysely<DB>, input: { experimentId: string; pathway: string; at: string }) {
  const onPathway = db
    .selectFrom('assignments')
    .select('id')
    .where('experiment_id', '=', input.experimentId)
    .where('completion_pathway', '=', input.pathway);
  return db
    .updateTable('prolific_submissions')
    .set({ status: 'approved', updated_at: input.at })
    .where('status', '=', 'awaiting_review')
    .where('assignment_id', 'in', onPathway)
    .returning(['assignment_id', 'submission_id'])
    .execute();
}

/** Puts claimed submissions back to awaiting review when Prolific did not take the approval. */
export async function releaseClaim(db: Kysely<DB>, assignmentIds: readonly string[], at: string): Promise<void> {
  if (assignmentIds.length === 0) return;
  await db
    .updateTable('prolific_submissions')
    .set({ status: 'awaiting_review', updated_at: at })
    .where('status', '=', 'approved')
    .where('assignment_id', 'in', [...assignmentIds])
    .execute();
}

/** The recorded SESSION_ID (Prolific's submission id) of assignments whose webhook row carries none. */
export function sessionIdsOf(db: Kysely<DB>, assignmentIds: readonly string[]) {
  if (assignmentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('assignments')
    .select(['id', 'session_id'])
    .where('id', 'in', [...assignmentIds])
    .execute();
}

/** The Prolific submission (webhook row) of each of these assignments, when one is known. */
export function submissionsOf(db: Kysely<DB>, assignmentIds: readonly string[]) {
  if (assignmentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('prolific_submissions')
    .select(['assignment_id', 'submission_id', 'status'])
    .where('assignment_id', 'in', [...assignmentIds])
    .execute();
}

/** Marks rejected, in one statement, those of these submissions still awaiting review, and answers them. */
export function claimForRejection(db: Kysely<DB>, assignmentIds: readonly string[], at: string) {
  return db
    .updateTable('prolific_submissions')
    .set({ status: 'rejected', updated_at: at })
    .where('status', '=', 'awaiting_review')
    .where('assignment_id', 'in', [...assignmentIds])
    .returning(['assignment_id', 'submission_id'])
    .execute();
}

/** Puts a claimed rejection back to awaiting review when Prolific did not take it. */
export async function releaseRejection(db: Kysely<DB>, assignmentIds: readonly string[], at: string): Promise<void> {
  if (assignmentIds.length === 0) return;
  await db
    .updateTable('prolific_submissions')
    .set({ status: 'awaiting_review', updated_at: at })
    .where('status', '=', 'rejected')
    .where('assignment_id', 'in', [...assignmentIds])
    .execute();
}
