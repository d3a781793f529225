import { randomBytes } from 'node:crypto';
import {
  LOGIN_REVOKED_TEXT,
  type ChatLimits,
  type ProlificLinkJoinBody,
  type ProlificLinkJoinReply,
  type ProlificLinkJoinSetting,
} from '@studychat/contracts';
import { toBool } from '../../db/values.js';
import { AppError, notFound } from '../../lib/errors.js';
import { insertSession, setLastLogin, type AuthContext } from '../auth/auth.service.js';
import { EXPERIMENT_NOT_FOUND, findExperiment } from '../experiments/experiments.service.js';
import { createAssignment } from '../participants/participants.service.js';
import { linkedStudyIdOf } from '../prolific/prolific.service.js';
import { deleteAccounts, insertUser } from '../users/users.service.js';
import { generatePassword, hashGeneratedPassword } from '../users/password.js';
import { claimOfPid, readLinkJoin, writeLinkJoin } from './link-join.repository.js';

// Joining by Prolific's study link alone (issue 33, docs/decisions/0086-prolific-link-join.md). With the
// experiment's setting on, the landing's PROLIFIC_PID, STUDY_ID and SESSION_ID start the participant's session
// (a login made here for the PID, never usable with a password) or resume it: the PID takes part once per
// experiment, and only the SESSION_ID recorded at its start resumes it.

/** Logins made for a PID are recognisable at a glance (".invalid" can never be a real domain). */
const LINK_DOMAIN = 'prolific-link.invalid';

export const LINK_JOIN_OFF_TEXT =
  'This study asks for the study login you were given with it. Please log in with that study email and password.';
export const SESSION_MISMATCH_TEXT =
  'This Prolific ID has already started this study in another Prolific session, so this link cannot continue it. Please open the study from the same Prolific submission you started, or contact the research team.';
export const STUDY_MISMATCH_TEXT =
  'This link is for a different Prolific study. Please open the study again from its link on Prolific.';

export async function linkJoinSetting(auth: AuthContext, experimentId: string): Promise<ProlificLinkJoinSetting> {
  const { deps } = auth;
  if (!(await findExperiment(deps, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  const row = await readLinkJoin(deps.database.db, experimentId);
  return { experimentId, enabled: row ? toBool(row.enabled) : false };
}

export async function setLinkJoinSetting(
  auth: AuthContext,
  adminId: string,
  experimentId: string,
  enabled: boolean,
): Promise<ProlificLinkJoinSetting> {
  const { deps } = auth;
  if (!(await findExperiment(deps, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  await writeLinkJoin(deps.database.db, { experimentId, enabled, by: adminId, at: deps.clock().toISOString() });
  return { experimentId, enabled };
}

/** Starts or resumes the PID's participation and signs it in, as a login would (a new participant session). */
export async function joinByLink(
  auth: AuthContext,
  chatDefaults: ChatLimits,
  body: ProlificLinkJoinBody,
): Promise<ProlificLinkJoinReply> {
  const { deps } = auth;
  const { db } = deps.database;
  const { experimentId, prolificPid, studyId, sessionId } = body;
  const setting = await readLinkJoin(db, experimentId);
  if (!setting || !toBool(setting.enabled)) {
    if (!(await findExperiment(deps, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
    throw new AppError(403, 'LINK_JOIN_OFF', LINK_JOIN_OFF_TEXT);
  }
  const linked = await linkedStudyIdOf(deps, experimentId);
  if (linked !== null && linked !== studyId) throw new AppError(403, 'STUDY_MISMATCH', STUDY_MISMATCH_TEXT);

  let resumed = true;
  let claim: Claim | undefined = await claimOfPid(db, experimentId, prolificPid);
  if (!claim) {
    const started = await startParticipation(auth, chatDefaults, body);
    // Two first joins at once: the one whose claim lost resumes the winner's if its SESSION_ID is the same.
    claim = started ?? (await claimOfPid(db, experimentId, prolificPid));
    resumed = started === undefined;
  }
  if (!claim) throw new AppError(409, 'CONFLICT', 'This Prolific ID could not join. Please try the link again.');
  if (claim.session_id !== sessionId) throw new AppError(403, 'SESSION_MISMATCH', SESSION_MISMATCH_TEXT);
  if (claim.disabled_at) throw new AppError(403, 'LOGIN_REVOKED', LOGIN_REVOKED_TEXT);
  const signed = await signIn(auth, claim);
  return {
    ...signed,
    experiment_id: experimentId,
    prolific_pid: prolificPid,
    resumed,
    flow: Boolean(await deps.flows(experimentId)),
  };
}

interface Claim {
  user_id: string;
  email: string;
  session_id: string | null;
  disabled_at: unknown;
}

/**
 * A login of its own for the PID, then the join with every rule of a login's join (the experiment admits new
 * participants, a withdrawn PID is refused, the PID claimed once). A refused join takes the login away again, so
 * nothing is left behind; undefined when another request claimed the PID first.
 */
async function startParticipation(
  auth: AuthContext,
  chatDefaults: ChatLimits,
  body: ProlificLinkJoinBody,
): Promise<Claim | undefined> {
  const { deps } = auth;
  const { db } = deps.database;
  const iso = deps.clock().toISOString();
  const userId = deps.newId();
  const email = `prolific-${randomBytes(4).toString('hex')}-${userId.slice(0, 8)}@${LINK_DOMAIN}`;
  await insertUser(db, {
    id: userId,
    email,
    // A password nobody knows: this participant comes back through the study link only.
    password_hash: hashGeneratedPassword(generatePassword(), auth.pepper),
    is_admin: false,
    role: 'participant',
    metadata: JSON.stringify({ experimentId: body.experimentId, prolificLink: true }),
    created_at: iso,
    updated_at: iso,
    last_login_at: null,
  });
  try {
    await createAssignment(
      deps,
      { userId, isAdmin: false },
      {
        user_id: userId,
        experiment_id: body.experimentId,
        prolific_pid: body.prolificPid,
        study_id: body.studyId,
        session_id: body.sessionId,
      },
      chatDefaults,
    );
  } catch (error) {
    await deleteAccounts(db, [userId]);
    if (error instanceof AppError && error.code === 'PROLIFIC_ID_TAKEN') return undefined;
    throw error;
  }
  return { user_id: userId, email, session_id: body.sessionId, disabled_at: null };
}

async function signIn(auth: AuthContext, claim: Claim): Promise<Pick<ProlificLinkJoinReply, 'token' | 'user'>> {
  const { deps } = auth;
  const now = deps.clock();
  const iso = now.toISOString();
  const sessionId = deps.newId();
  await deps.database.db.transaction().execute(async (trx) => {
    await insertSession(trx, {
      id: sessionId,
      user_id: claim.user_id,
      created_at: iso,
      expires_at: new Date(now.getTime() + auth.tokenTtlSeconds * 1000).toISOString(),
    });
    await setLastLogin(trx, claim.user_id, iso);
  });
  auth.lastSeen?.remember(claim.user_id, now);
  const token = await auth.signer.sign(
    { userId: claim.user_id, email: claim.email, isAdmin: false, role: 'participant' },
    sessionId,
    now,
    auth.tokenTtlSeconds,
  );
  return { token, user: { id: claim.user_id, email: claim.email } };
}
