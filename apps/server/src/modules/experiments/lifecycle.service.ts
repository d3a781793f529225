import {
  EXPERIMENT_CLOSED_TEXT,
  EXPERIMENT_PAUSED_TEXT,
  EXPERIMENT_TRANSITIONS,
  type DeleteExperimentReply,
  type Experiment,
  type ExperimentState,
  type RevokeLoginReply,
  toExperimentState,
} from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, notFound } from '../../lib/errors.js';
import { revokeUserSessions } from '../auth/auth.service.js';
import { deleteAccounts, disableAccount } from '../users/users.service.js';
import { EXPERIMENT_NOT_FOUND, getExperiment, requireExperiment } from './experiments.service.js';
import { findExperimentById } from './experiments.repository.js';
import {
  anyoneJoined,
  deleteExperimentRow,
  findStudyLoginByEmail,
  lockExperimentState,
  setExperimentStateRow,
  studyLoginUserIds,
} from './lifecycle.repository.js';

// An experiment's lifecycle (issue 34, docs/decisions/0077): its state and who may join in it, deleting a draft,
// revoking a study login.

/** The experiment's state, or undefined when it does not exist. */
export async function experimentStateOf(deps: AppDeps, id: string): Promise<ExperimentState | undefined> {
  const row = await findExperimentById(deps.database.db, id);
  return row && toExperimentState(row.state);
}

/** The refusal of a new participant in this state, or null when the experiment is open. */
export function joinRefusal(state: ExperimentState): AppError | null {
  if (state === 'open') return null;
  if (state === 'paused') return new AppError(403, 'EXPERIMENT_PAUSED', EXPERIMENT_PAUSED_TEXT);
  return new AppError(403, 'EXPERIMENT_CLOSED', EXPERIMENT_CLOSED_TEXT);
}

function hasParticipants(): AppError {
  return new AppError(
    409,
    'EXPERIMENT_HAS_PARTICIPANTS',
    'Participants have joined this experiment (or a preview ran it): it cannot go back to draft or be deleted. Close or archive it instead.',
  );
}

/**
 * Changes the experiment's state along EXPERIMENT_TRANSITIONS (409 STATE_TRANSITION_INVALID otherwise; the same
 * state again is a no-op). Open goes back to draft only while nobody joined. The row is locked first, so two
 * changes at once are applied one after the other. Returns the experiment and the state it left.
 */
export async function setExperimentState(
  deps: AppDeps,
  id: string,
  to: ExperimentState,
): Promise<{ experiment: Experiment; from: ExperimentState }> {
  const from = await deps.database.db.transaction().execute(async (trx) => {
    const stored = await lockExperimentState(trx, id);
    if (stored === undefined) throw notFound(EXPERIMENT_NOT_FOUND);
    const current = toExperimentState(stored);
    if (current === to) return current;
    if (!EXPERIMENT_TRANSITIONS[current].includes(to)) {
      const allowed = EXPERIMENT_TRANSITIONS[current].join(', ');
      throw new AppError(
        409,
        'STATE_TRANSITION_INVALID',
        `An experiment that is ${current} cannot become ${to}; from ${current} it can become: ${allowed}.`,
      );
    }
    if (to === 'draft' && (await anyoneJoined(trx, id))) throw hasParticipants();
    await setExperimentStateRow(trx, id, to, deps.clock().toISOString());
    return current;
  });
  return { experiment: await getExperiment(deps, id), from };
}

/**
 * Deletes a draft experiment nobody joined, with its completion codes, preview links and study logins (their
 * accounts too: they were made for it alone). 409 EXPERIMENT_NOT_DRAFT for any other state, 409
 * EXPERIMENT_HAS_PARTICIPANTS once anyone joined (a preview included).
 */
export async function deleteExperiment(deps: AppDeps, id: string): Promise<DeleteExperimentReply> {
  return deps.database.db.transaction().execute(async (trx) => {
    const stored = await lockExperimentState(trx, id);
    if (stored === undefined) throw notFound(EXPERIMENT_NOT_FOUND);
    if (toExperimentState(stored) !== 'draft') {
      throw new AppError(
        409,
        'EXPERIMENT_NOT_DRAFT',
        'Only a draft experiment can be deleted. An open experiment nobody joined can be set back to draft first; one with participants can be closed and archived.',
      );
    }
    if (await anyoneJoined(trx, id)) throw hasParticipants();
    const logins = await studyLoginUserIds(trx, id);
    await deleteExperimentRow(trx, id);
    await deleteAccounts(trx, logins);
    return { id, study_logins: logins.length };
  });
}

/**
 * Revokes one of the experiment's study logins by its email: the account can no longer log in (403
 * LOGIN_REVOKED) and its sessions end at once. Revoking it again changes nothing. 404 when the email is not a
 * study login of this experiment.
 */
export async function revokeStudyLogin(deps: AppDeps, experimentId: string, email: string): Promise<RevokeLoginReply> {
  const { db } = deps.database;
  const now = deps.clock().toISOString();
  const login = await findStudyLoginByEmail(db, experimentId, email.trim());
  if (!login) {
    await requireExperiment(deps, experimentId);
    throw notFound('No study login of this experiment has that email');
  }
  await disableAccount(db, login.user_id, now);
  // Outside a transaction, so this process's session cache drops the account's sessions at once.
  const ended = await revokeUserSessions(db, login.user_id, now);
  return { email: login.email, sessions_ended: ended };
}
