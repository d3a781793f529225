import type { ProlificRejectBody, ProlificRejectReply } from '@studychat/contracts';
import { AppError, notFound } from '../../lib/errors.js';
import { ProlificError } from './prolific-client.js';
import { experimentExists } from './prolific.repository.js';
import { asAppError, clientOf, type ProlificRuntime } from './prolific.service.js';
import { participantsWithPids } from './bonus.repository.js';
import type { AuditFailure } from './bonus.service.js';
import { claimForRejection, releaseRejection, submissionsOf } from './review.repository.js';

// Rejecting on Prolific (docs/decisions/0089-prolific-reject-and-bonuses.md): only participants of this experiment
// whose submission is known and awaits review, with one of Prolific's categories and a message of 100 characters or
// more (the contract checks both), after the researcher confirmed. Each submission is claimed (status set to
// rejected) before Prolific is called, so a double click rejects it once; one Prolific does not take is put back.

export async function rejectSubmissions(
  runtime: ProlificRuntime,
  input: { experimentId: string; body: ProlificRejectBody; auditFailure: AuditFailure },
): Promise<ProlificRejectReply> {
  const { deps } = runtime;
  const { db } = deps.database;
  const { experimentId, body } = input;
  if (!(await experimentExists(db, experimentId))) throw notFound('Experiment not found');
  const client = await clientOf(runtime);
  if (!client) throw new AppError(409, 'PROLIFIC_NOT_CONFIGURED', 'Set a Prolific API token first.');

  const participants = await participantsWithPids(db, experimentId, body.prolificPids);
  const byPid = new Map(participants.map((p) => [p.prolific_pid, p]));
  const unknown = body.prolificPids.filter((pid) => !byPid.has(pid));
  if (unknown.length > 0) {
    throw new AppError(404, 'NOT_FOUND', 'Some Prolific ids are not participants of this experiment.', undefined, {
      issues: unknown.map((pid) => ({ path: pid, message: 'is not a participant of this experiment' })),
    });
  }
  const submissions = new Map(
    (
      await submissionsOf(
        db,
        participants.map((p) => p.id),
      )
    ).map((s) => [s.assignment_id, s]),
  );
  const problems: { path: string; message: string }[] = [];
  for (const pid of body.prolificPids) {
    const participant = byPid.get(pid);
    const submission = participant ? submissions.get(participant.id) : undefined;
    if (!participant || !submission || !(submission.submission_id ?? participant.session_id)) {
      problems.push({ path: pid, message: 'has no Prolific submission known here (none linked)' });
    } else if (submission.status !== 'awaiting_review') {
      problems.push({ path: pid, message: `is ${submission.status.replace('_', ' ')}, not awaiting review` });
    }
  }
  if (problems.length > 0) {
    throw new AppError(409, 'PROLIFIC_NOT_REVIEWABLE', 'Only submissions awaiting review can be rejected.', undefined, {
      issues: problems,
    });
  }

  const at = () => deps.clock().toISOString();
  const claimed = await claimForRejection(
    db,
    participants.map((p) => p.id),
    at(),
  );
  const claimedIds = new Set(claimed.map((c) => c.assignment_id));
  const rejected: string[] = [];
  const failed: ProlificRejectReply['failed'] = [];
  let lastError: ProlificError | null = null;
  for (const pid of body.prolificPids) {
    const participant = byPid.get(pid);
    if (!participant) continue;
    if (!claimedIds.has(participant.id)) {
      failed.push({ prolificPid: pid, error: 'is already being reviewed by another request' });
      continue;
    }
    const submissionId =
      claimed.find((c) => c.assignment_id === participant.id)?.submission_id ?? participant.session_id;
    try {
      if (!submissionId) throw new ProlificError('rejected', 'No submission id is known');
      if (lastError?.kind === 'unauthorized') throw lastError;
      await client.rejectSubmission(submissionId, body.category, body.message);
      rejected.push(pid);
    } catch (error) {
      if (!(error instanceof ProlificError)) throw error;
      lastError = error;
      await releaseRejection(db, [participant.id], at());
      failed.push({ prolificPid: pid, error: error.message });
    }
  }
  if (rejected.length === 0 && lastError) {
    await input.auditFailure({ category: body.category, prolificPids: body.prolificPids, error: lastError.message });
    throw asAppError(lastError);
  }
  return { rejected, failed };
}
