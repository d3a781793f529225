import {
  type ParticipantStudy,
  NOT_ADMITTING_TEXT,
  type Admission,
  type Assignment,
  type ChatLimits,
  type CompletionStatus,
  type Journey,
  toExperimentState,
} from '@studychat/contracts';
import { parseJsonObject } from '../../db/values.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.js';
import { admitsNew } from '../chat/chat-limits.service.js';
import { EXPERIMENT_NOT_FOUND, requireExperiment } from '../experiments/experiments.service.js';
import { experimentStateOf, joinRefusal } from '../experiments/lifecycle.service.js';
import { experimentFull } from '../experiments/quotas.service.js';
import { experimentStudyView } from '../studies/studies.service.js';
import { journeyWriteThen } from '../journey/journey.service.js';
import { logJoined } from '../journey/journey-log.js';
import {
  assertSelf,
  assertSelfOrAdmin,
  prolificIdTaken,
  prolificIdWithdrawn,
  prolificMismatch,
  requireAssignment,
} from './access.js';
import type { Requester } from '../../lib/context.js';
import { isWithdrawn } from '../withdrawal/withdrawn-ids.js';
import { assertInEarlierWave } from '../waves/waves.service.js';
import { toAssignment, toCompletionStatus } from '../journey/assignment.mapper.js';
import { readJoinFacts } from './join-facts.repository.js';
import {
  claimProlificId,
  findCompletion,
  findAssignmentById,
  insertAssignmentOnce,
  prolificIdsOfUser,
  recordConsent,
  updateAssignmentIfUnset,
} from './assignments.repository.js';

export interface CreateAssignmentInput {
  user_id: string;
  experiment_id: string;
  prolific_pid: string;
  study_id?: string | null | undefined;
  session_id?: string | null | undefined;
}

async function reread(deps: AppDeps, id: string): Promise<Assignment> {
  const row = await findAssignmentById(deps.database.db, id);
  if (!row) throw notFound();
  return toAssignment(row);
}

/**
 * Whether the experiment takes new participants, for its landing page (public): not while it is paused, closed, a
 * draft or archived (docs/decisions/0077), nor once its chat budget is spent to its admit percent
 * (docs/decisions/0073). 404 for an unknown experiment.
 */
export async function getAdmission(deps: AppDeps, chatDefaults: ChatLimits, experimentId: string): Promise<Admission> {
  const stored = await experimentStateOf(deps, experimentId);
  if (stored === undefined) throw notFound(EXPERIMENT_NOT_FOUND);
  const state = stored === 'open' && (await experimentFull(deps, deps.database.db, experimentId)) ? 'closed' : stored;
  const refusal = joinRefusal(state);
  if (refusal) {
    return { admitting: false, message: refusal.message, reason: state === 'paused' ? 'paused' : 'closed' };
  }
  const admitting = await admitsNew(deps.database.db, chatDefaults, experimentId);
  if (admitting === undefined) throw notFound(EXPERIMENT_NOT_FOUND);
  return { admitting, message: admitting ? null : NOT_ADMITTING_TEXT };
}

/**
 * Joins the caller's own login to an experiment (403 for another account's id, admins included; 409 CONFLICT
 * when it already has). A generated study login joins only
 * its own experiment, a login is bound to the first Prolific id that uses it, and a Prolific id takes part
 * once per experiment (409 PROLIFIC_ID_TAKEN for a second login; 403 PROLIFIC_ID_WITHDRAWN after its
 * withdrawal). A new participant is refused once the experiment's chat budget is nearly spent (403
 * NOT_ADMITTING, nothing written: the login stays unbound); one who joined before goes on. Logs `joined` in
 * the same transaction.
 */
export async function createAssignment(
  deps: AppDeps,
  requester: Requester,
  input: CreateAssignmentInput,
  chatDefaults: ChatLimits,
): Promise<Assignment> {
  const { db } = deps.database;
  assertSelf(requester, input.user_id);
  const pid = input.prolific_pid.trim();
  const join = { userId: input.user_id, experimentId: input.experiment_id, prolificPid: pid };
  const facts = await readJoinFacts(db, join);
  if (!facts.experimentExists) throw notFound(EXPERIMENT_NOT_FOUND);
  if (!facts.user) throw notFound('User not found');

  const boundExperiment = parseJsonObject(facts.user.metadata)?.experimentId;
  if (typeof boundExperiment === 'string' && boundExperiment !== input.experiment_id) {
    throw forbidden(
      'This study login was created for a different study. Please use the login details provided with this study.',
    );
  }
  if (facts.prolificIds.some((existing) => existing !== pid)) throw prolificMismatch();
  if (facts.withdrawn) throw prolificIdWithdrawn();
  // A follow-up wave admits only a Prolific id that finished the wave it follows (docs/decisions/0091).
  await assertInEarlierWave(deps, input.experiment_id, pid);

  // Every quota cell full: no one new (read before the transaction, only when there are quotas; the assignment
  // itself holds the quotas exactly, docs/decisions/0077).
  const full = facts.hasQuotas && (await experimentFull(deps, db, input.experiment_id));

  const now = deps.clock();
  const id = deps.newId();
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await insertAssignmentOnce(trx, {
      id,
      user_id: input.user_id,
      experiment_id: input.experiment_id,
      prolific_pid: pid,
      study_id: input.study_id?.trim() || null,
      session_id: input.session_id?.trim() || null,
      assigned_condition: null,
      stratum: null,
      condition_assigned_at: null,
      consent_given: false,
      consent_timestamp: null,
      intervention_completed_timestamp: null,
      completion_pathway: null,
      completion_code: null,
      completed_at: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    if (!inserted) throw conflict('You have already joined this experiment');
    // A paused, closed, draft or archived experiment takes no one new; one already in finishes (0077).
    const refusal = joinRefusal(full ? 'closed' : toExperimentState(facts.state));
    if (refusal) throw refusal;
    // Only a first join is refused, so a participant already in logs in again and finishes (0073).
    if ((await admitsNew(trx, chatDefaults, input.experiment_id)) === false) {
      throw new AppError(403, 'NOT_ADMITTING', NOT_ADMITTING_TEXT);
    }
    const claim = { experimentId: input.experiment_id, prolificPid: pid, assignmentId: id, userId: input.user_id };
    if (!(await claimProlificId(trx, { ...claim, now: now.toISOString() }))) throw prolificIdTaken();
    await logJoined(trx, { userId: input.user_id, experimentId: input.experiment_id, assignmentId: id, now });
    return inserted;
  });
  return toAssignment(row);
}

export async function getAssignment(
  deps: AppDeps,
  requester: Requester,
  userId: string,
  experimentId: string,
): Promise<Assignment> {
  assertSelfOrAdmin(requester, userId);
  return toAssignment(await requireAssignment(deps.database.db, userId, experimentId));
}

/** Records consent once, at the consent step; a repeat keeps the first time. With the journey after it. */
export async function giveConsent(
  deps: AppDeps,
  userId: string,
  experimentId: string,
): Promise<Assignment & { journey: Journey }> {
  const { value, journey } = await journeyWriteThen(
    deps,
    { userId, experimentId, write: { kind: 'consent' } },
    {
      repeat: async ({ state }) => state.facts.assignment,
      apply: async ({ trx, state, now }) => {
        const written = await recordConsent(trx, state.facts.assignment.id, now.toISOString());
        // The row is locked and its facts say no consent yet: the update found it.
        if (!written) throw new Error('consent could not be recorded');
        return { result: written, event: { type: 'consented' } };
      },
    },
  );
  return { ...toAssignment(value), journey };
}

/**
 * Sets the Prolific id when none is recorded; the same id again is a no-op, another is refused (403), and
 * an id another login already uses in this experiment is refused (409 PROLIFIC_ID_TAKEN), a withdrawn one
 * too (403 PROLIFIC_ID_WITHDRAWN).
 */
export async function updateProlificId(
  deps: AppDeps,
  userId: string,
  experimentId: string,
  prolificId: string,
): Promise<Assignment> {
  const { db } = deps.database;
  const pid = prolificId.trim();
  const row = await requireAssignment(db, userId, experimentId);
  if (row.prolific_pid === pid) return toAssignment(row);
  if (row.prolific_pid !== null) throw prolificMismatch();
  if ((await prolificIdsOfUser(db, userId)).some((existing) => existing !== pid)) throw prolificMismatch();
  if (await isWithdrawn(db, experimentId, pid)) throw prolificIdWithdrawn();
  const now = deps.clock().toISOString();
  await db.transaction().execute(async (trx) => {
    // Another request may have set an id between our read and this write: only an unset id is written.
    if (!(await updateAssignmentIfUnset(trx, row.id, 'prolific_pid', { prolific_pid: pid, updated_at: now }))) return;
    const claim = { experimentId, prolificPid: pid, assignmentId: row.id, userId, now };
    if (!(await claimProlificId(trx, claim))) throw prolificIdTaken();
  });
  const after = await reread(deps, row.id);
  if (after.prolific_pid !== pid) throw prolificMismatch();
  return after;
}

/**
 * The caller's completion status; not completed when they have not joined the experiment (or it does
 * not exist). One indexed read: every study page's guard asks for it.
 */
export async function getCompletionStatus(
  deps: AppDeps,
  userId: string,
  experimentId: string,
): Promise<CompletionStatus> {
  return toCompletionStatus(await findCompletion(deps.database.db, userId, experimentId));
}

/**
 * The study of an experiment as a participant's browser gets it (studies.service.ts experimentStudyView). A
 * participant (`participantId`) reads only the study of an experiment they have joined (404 otherwise, as every
 * participant route); staff (null) read any.
 */
export async function participantStudyView(
  deps: AppDeps,
  experimentId: string,
  participantId: string | null,
): Promise<ParticipantStudy> {
  if (participantId !== null) await requireAssignment(deps.database.db, participantId, experimentId);
  await requireExperiment(deps, experimentId);
  return experimentStudyView(deps, experimentId);
}

// The participants module's public API for other modules (a preview joins its test participant itself).
export {
  claimProlificId,
  findAssignment,
  insertAssignmentOnce,
  recordCompletionOf,
  recordConsent,
} from './assignments.repository.js';
export { assignFlowCondition, isRandomisationRetry } from './randomisation.service.js';
