import { PROLIFIC_SUBMISSION_STATUSES, type ProlificSyncReply } from '@studychat/contracts';
import { AppError, notFound } from '../../lib/errors.js';
import { experimentExists, readStudyLink } from './prolific.repository.js';
import { asAppError, clientOf, pickAssignment, submissionStatusOf, type ProlificRuntime } from './prolific.service.js';
import {
  experimentAssignmentsWithPid,
  spareLogins,
  statusCounts,
  storeSyncedStatus,
} from './submissions-sync.repository.js';

// "Refresh from Prolific" (docs/decisions/0090-prolific-launch.md): every page of the linked study's submissions
// (the client follows the next links and waits out 429), each matched to a participant of this experiment by PID
// and SESSION_ID as the webhooks match them, its status stored unless a later one is.

/** Pages read at most (20 submissions a page by Prolific's default): 20,000 submissions. */
const SYNC_MAX_PAGES = 1_000;

export async function syncSubmissions(runtime: ProlificRuntime, experimentId: string): Promise<ProlificSyncReply> {
  const { deps } = runtime;
  const { db } = deps.database;
  if (!(await experimentExists(db, experimentId))) throw notFound('Experiment not found');
  const client = await clientOf(runtime);
  if (!client) {
    throw new AppError(
      409,
      'PROLIFIC_NOT_CONFIGURED',
      'Set a Prolific API token first (Security page, Prolific card).',
    );
  }
  const link = await readStudyLink(db, experimentId);
  if (!link) {
    throw new AppError(409, 'CONFLICT', 'The experiment is not linked to a Prolific study: launch it or link one.');
  }
  // The list as read now: its statuses hold at this time (a webhook stamped later wins over them).
  const readAt = deps.clock().toISOString();
  let submissions;
  try {
    submissions = await client.listSubmissions(link.study_id, SYNC_MAX_PAGES);
  } catch (error) {
    throw asAppError(error);
  }
  const byPid = new Map<string, { id: string; session_id: string | null }[]>();
  for (const row of await experimentAssignmentsWithPid(db, experimentId)) {
    const pid = row.prolific_pid ?? '';
    byPid.set(pid, [...(byPid.get(pid) ?? []), row]);
  }
  let matched = 0;
  for (const submission of submissions) {
    const target = submission.participantId
      ? pickAssignment(byPid.get(submission.participantId) ?? [], submission.id)
      : null;
    if (!target) continue;
    matched += 1;
    await storeSyncedStatus(db, {
      assignmentId: target,
      submissionId: submission.id,
      status: submissionStatusOf(submission.status),
      statusAt: readAt,
      at: readAt,
    });
  }
  const counts = Object.fromEntries(PROLIFIC_SUBMISSION_STATUSES.map((s) => [s, 0])) as ProlificSyncReply['counts'];
  for (const row of await statusCounts(db, experimentId)) {
    const status = submissionStatusOf(row.status);
    counts[status] += Number(row.n);
  }
  return {
    read: submissions.length,
    matched,
    unmatched: submissions.length - matched,
    counts,
    spareLogins: await spareLogins(db, experimentId),
  };
}
