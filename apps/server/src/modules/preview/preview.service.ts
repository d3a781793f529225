import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  PREVIEW_LINK_MINUTES,
  conditionIds,
  type Condition,
  type PreviewLink,
  type RedeemPreviewReply,
} from '@studychat/contracts';
import type { DB } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { insertSession, setLastLogin, type AuthContext } from '../auth/auth.service.js';
import { EXPERIMENT_NOT_FOUND, findExperiment } from '../experiments/experiments.service.js';
import { logJoined } from '../journey/journey-log.js';
import { claimProlificId, findAssignment, insertAssignmentOnce } from '../participants/participants.service.js';
import { findUserById, insertUser } from '../users/users.service.js';
import { generatePassword, hashGeneratedPassword } from '../users/password.js';
import { insertPreviewLink, useLinkOnce } from './preview.repository.js';

// "Preview as participant" (docs/decisions/0045). A preview is a test participant of its own (a login
// bound to the experiment, never usable with a password) whose assignment is flagged `is_test` and carries
// the chosen condition from the start: the assignment step then finds it already made, so no allocation
// slot is claimed and the permuted-block sequence of real participants is untouched.

export const PREVIEW_LINK_INVALID =
  'This preview link has expired or has already been used. Create a new preview on the experiment page.';

/** Test logins are recognisable at a glance: preview-<id>@preview.invalid (".invalid" can never be a real domain). */
const PREVIEW_DOMAIN = 'preview.invalid';

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export async function createPreview(
  auth: AuthContext,
  adminId: string,
  experimentId: string,
  condition: Condition,
  /** A pilot run's simulated participant (issue 35): PILOT- ids, the run named in the user's metadata. */
  pilot?: { runId: string },
): Promise<PreviewLink> {
  const { deps } = auth;
  const { db } = deps.database;
  if (!(await findExperiment(deps, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  // The admin picks among the conditions of the experiment's study version (docs/decisions/0061).
  // A flow's conditions are its own (issue 35: a pilot's participants walk flows too).
  const flow = await deps.flows(experimentId);
  const ids = flow ? flow.conditions.map((c) => c.id) : conditionIds(await deps.studies(experimentId));
  if (!ids.includes(condition))
    throw new AppError(
      400,
      'VALIDATION_FAILED',
      `condition: must be one of the study's conditions (${ids.join(', ')})`,
    );
  const now = deps.clock();
  const iso = now.toISOString();
  const userId = deps.newId();
  const assignmentId = deps.newId();
  const short = randomBytes(4).toString('hex').toUpperCase();
  const kind = pilot ? 'pilot' : 'preview';
  const prolificPid = `${kind.toUpperCase()}-${short}`;
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + PREVIEW_LINK_MINUTES * 60_000).toISOString();

  await db.transaction().execute(async (trx) => {
    await insertUser(trx, {
      id: userId,
      email: `${kind}-${short.toLowerCase()}-${userId.slice(0, 8)}@${PREVIEW_DOMAIN}`,
      // A password nobody knows: the test participant signs in through the link only.
      password_hash: hashGeneratedPassword(generatePassword(), auth.pepper),
      is_admin: false,
      role: 'participant',
      metadata: JSON.stringify({
        experimentId,
        preview: true,
        createdBy: adminId,
        ...(pilot ? { pilotRunId: pilot.runId } : {}),
      }),
      created_at: iso,
      updated_at: iso,
      last_login_at: null,
    });
    await insertAssignmentOnce(trx, {
      id: assignmentId,
      user_id: userId,
      experiment_id: experimentId,
      prolific_pid: prolificPid,
      study_id: null,
      session_id: null,
      assigned_condition: condition,
      stratum: null,
      condition_assigned_at: iso,
      consent_given: false,
      consent_timestamp: null,
      intervention_completed_timestamp: null,
      completion_pathway: null,
      completion_code: null,
      completed_at: null,
      is_test: true,
      created_at: iso,
      updated_at: iso,
    });
    await claimProlificId(trx, { experimentId, prolificPid, assignmentId, userId, now: iso });
    await logJoined(trx, { userId, experimentId, assignmentId, now });
    await insertPreviewLink(trx, {
      token_hash: hashToken(token),
      user_id: userId,
      experiment_id: experimentId,
      created_by: adminId,
      created_at: iso,
      expires_at: expiresAt,
    });
  });
  return {
    assignment_id: assignmentId,
    user_id: userId,
    condition,
    prolific_pid: prolificPid,
    path: `/preview#${token}`,
    expires_at: expiresAt,
  };
}

/**
 * The link's use, in the audit log under the admin who made it (the link is their credential, handed on):
 * written in the redeem's transaction, so a used link always has its entry. An admin deleted since has
 * left `created_by` null; the entry then names the test participant as the actor, `created_by: null`.
 */
async function auditRedeem(
  auth: AuthContext,
  trx: Kysely<DB>,
  used: {
    link: { user_id: string; experiment_id: string; created_by: string | null };
    user: { id: string; email: string };
    assignmentId: string | null;
  },
): Promise<void> {
  const { link, user } = used;
  const admin = link.created_by === null ? undefined : await findUserById(trx, link.created_by);
  const actor = admin ? { userId: admin.id, email: admin.email } : { userId: user.id, email: user.email };
  await recordAudit(
    auth.deps,
    actor,
    {
      action: 'experiment.preview.redeem',
      target: { type: 'experiment', id: link.experiment_id },
      details: {
        test_user_id: user.id,
        assignment_id: used.assignmentId,
        created_by: link.created_by,
      },
    },
    trx,
  );
}

/** Signs the link's test participant in, once: a new participant session, as a login would make. */
export async function redeemPreview(auth: AuthContext, token: string): Promise<RedeemPreviewReply> {
  const { deps } = auth;
  const { db } = deps.database;
  const now = deps.clock();
  const iso = now.toISOString();
  const sessionId = deps.newId();
  // The link is spent and the session written together: a failure leaves the link usable.
  const signedIn = await db.transaction().execute(async (trx) => {
    const link = await useLinkOnce(trx, hashToken(token), iso);
    const user = link ? await findUserById(trx, link.user_id) : undefined;
    if (!link || !user) throw new AppError(401, 'PREVIEW_LINK_INVALID', PREVIEW_LINK_INVALID);
    await insertSession(trx, {
      id: sessionId,
      user_id: user.id,
      created_at: iso,
      expires_at: new Date(now.getTime() + auth.tokenTtlSeconds * 1000).toISOString(),
    });
    await setLastLogin(trx, user.id, iso);
    const assignment = await findAssignment(trx, user.id, link.experiment_id);
    await auditRedeem(auth, trx, { link, user, assignmentId: assignment?.id ?? null });
    return { link, user, prolificPid: assignment?.prolific_pid ?? '' };
  });
  const { link, user } = signedIn;
  const signed = await auth.signer.sign(
    { userId: user.id, email: user.email, isAdmin: false, role: 'participant' },
    sessionId,
    now,
    auth.tokenTtlSeconds,
  );
  return {
    token: signed,
    user: { id: user.id, email: user.email },
    experiment_id: link.experiment_id,
    prolific_pid: signedIn.prolificPid,
  };
}
