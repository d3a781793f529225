import type { ProlificApproveReply } from '@studychat/contracts';
import { AppError, notFound } from '../../lib/errors.js';
import { experimentExists } from './prolific.repository.js';
import { asAppError, clientOf, type ProlificRuntime } from './prolific.service.js';
import { claimAwaitingReview, releaseClaim, sessionIdsOf } from './review.repository.js';

/**
 * Approves on Prolific, in one bulk call by submission ids (as Prolific recommends), every submission of this
 * experiment's participants on the pathway that awaits review. The submissions are claimed first, so a double
 * click or two admins at once approve each one once; if Prolific refuses or cannot be reached, the claim is
 * released and the admin may try again.
 */
export async function approvePathway(
  runtime: ProlificRuntime,
  experimentId: string,
  pathway: string,
): Promise<ProlificApproveReply> {
  const { deps } = runtime;
  const { db } = deps.database;
  if (!(await experimentExists(db, experimentId))) throw notFound('Experiment not found');
  const client = await clientOf(runtime);
  if (!client) throw new AppError(409, 'PROLIFIC_NOT_CONFIGURED', 'Set a Prolific API token first.');
  const claimed = await claimAwaitingReview(db, { experimentId, pathway, at: deps.clock().toISOString() });
  if (claimed.length === 0) return { approved: 0, submissionIds: [] };
  const sessions = new Map(
    (
      await sessionIdsOf(
        db,
        claimed.map((c) => c.assignment_id),
      )
    ).map((row) => [row.id, row.session_id]),
  );
  const submissionIds = claimed
    .map((c) => c.submission_id ?? sessions.get(c.assignment_id) ?? null)
    .filter((id): id is string => id !== null)
    .sort();
  try {
    if (submissionIds.length > 0) await client.bulkApprove(submissionIds);
  } catch (error) {
    await releaseClaim(
      db,
      claimed.map((c) => c.assignment_id),
      deps.clock().toISOString(),
    );
    throw asAppError(error);
  }
  return { approved: submissionIds.length, submissionIds };
}
