import type { Updateable } from 'kysely';
import {
  CODE_KEYS,
  PATHWAY_CODE_KEY,
  type ChatLimitOverrides,
  type CompletionCodes,
  type Experiment,
  type Pathway,
} from '@studychat/contracts';
import type { ExperimentRow, ExperimentsTable } from '../../db/schema.js';
import { toNumberOrNull } from '../../db/values.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { addCreatorAsOwner, hiddenExperimentIds } from '../members/members.service.js';
import { ensureDefaultStudyVersion, findStudyVersion } from '../studies/studies.service.js';
import { earnedCode, pathwayNotEarned } from '../journey/journey.service.js';
import type { Requester } from '../../lib/context.js';
import { NO_PARTICIPATION } from '../journey/journey-errors.js';
import { toExperiment } from './experiment.mapper.js';
import {
  findExperimentCode,
  findCompletionCodes,
  pathwayOfCodeKey,
  listExperimentCodes,
  saveCompletionCodes,
} from './completion-codes.repository.js';
import { CHAT_LIMIT_COLUMN } from './chat-limit-columns.js';
import {
  findChatLimitOverrides,
  findExperimentById,
  insertExperiment,
  listExperimentBudgets,
  listExperimentRows,
  updateExperimentRow,
} from './experiments.repository.js';

export const EXPERIMENT_NOT_FOUND = 'Experiment not found';

/**
 * For a journey write's `notJoined`: 404 "Experiment not found" for an experiment that does not exist, else
 * 404 NO_PARTICIPATION. Read only when the write found no assignment (an assignment's experiment exists), so
 * the routes that name an unknown experiment do not read the experiment before every write.
 */
export function experimentOrParticipationMissing(deps: AppDeps, experimentId: string): () => Promise<AppError> {
  return async () =>
    notFound((await findExperimentById(deps.database.db, experimentId)) ? NO_PARTICIPATION : EXPERIMENT_NOT_FOUND);
}

/** Empty or whitespace-only descriptions are stored as null. */
function normaliseDescription(description: string | null | undefined): string | null {
  const trimmed = description?.trim();
  return trimmed ? trimmed : null;
}

/** Whether the experiment exists (404 EXPERIMENT_NOT_FOUND otherwise). */
export async function requireExperiment(deps: AppDeps, id: string): Promise<void> {
  if (!(await findExperimentById(deps.database.db, id))) throw notFound(EXPERIMENT_NOT_FOUND);
}

/** The experiment's row, or undefined (for modules that show or check its fields). */
export function findExperiment(deps: AppDeps, id: string): Promise<ExperimentRow | undefined> {
  return findExperimentById(deps.database.db, id);
}

/**
 * Every experiment, newest first; archived ones only with `includeArchived` (docs/decisions/0077). Given a staff
 * account, only those it may see: members-only experiments it is not a member of are left out (docs/decisions/0087).
 */
export async function listExperiments(
  deps: AppDeps,
  includeArchived = true,
  visibleTo?: { userId: string },
): Promise<Experiment[]> {
  const { db } = deps.database;
  const hidden = visibleTo ? await hiddenExperimentIds(deps, visibleTo.userId) : new Set<string>();
  const rows = (await listExperimentRows(db, includeArchived)).filter((row) => !hidden.has(row.id));
  const codes = await findCompletionCodes(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toExperiment(row, codes.get(row.id) ?? NO_CODES));
}

const NO_CODES: CompletionCodes = { complete: null, exitnoqualms: null, exitceiling: null };

export async function getExperiment(deps: AppDeps, id: string): Promise<Experiment> {
  const { db } = deps.database;
  const row = await findExperimentById(db, id);
  if (!row) throw notFound(EXPERIMENT_NOT_FOUND);
  const codes = await findCompletionCodes(db, [id]);
  return toExperiment(row, codes.get(id) ?? NO_CODES);
}

export async function createExperiment(
  deps: AppDeps,
  input: { name: string; description?: string | null | undefined; study_version_id?: string | undefined },
  /** The staff account creating it: its owner, which makes it members-only (docs/decisions/0087). */
  creatorId?: string,
): Promise<Experiment> {
  const now = deps.clock().toISOString();
  const id = deps.newId();
  const db = deps.database.db;
  // The experiment pins the version asked for, else the built-in study (docs/decisions/0025).
  const versionId = input.study_version_id ?? (await ensureDefaultStudyVersion(db, now));
  if (!(await findStudyVersion(db, versionId))) throw badRequest('study_version_id: no such study version');
  await db.transaction().execute(async (trx) => {
    await insertExperiment(trx, {
      id,
      name: input.name.trim(),
      description: normaliseDescription(input.description),
      study_version_id: versionId,
      created_at: now,
      updated_at: now,
    });
    if (creatorId) await addCreatorAsOwner(trx, id, creatorId, now);
  });
  return getExperiment(deps, id);
}

export async function updateExperiment(
  deps: AppDeps,
  id: string,
  input: { name?: string | undefined; description?: string | null | undefined },
): Promise<Experiment> {
  const changes: Updateable<ExperimentsTable> = { updated_at: deps.clock().toISOString() };
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.description !== undefined) changes.description = normaliseDescription(input.description);
  if (!(await updateExperimentRow(deps.database.db, id, changes))) throw notFound(EXPERIMENT_NOT_FOUND);
  return getExperiment(deps, id);
}

/** Sets the codes that were sent (each non-empty); codes not sent keep their value. */
export async function updateCompletionCodes(
  deps: AppDeps,
  id: string,
  codes: Partial<Record<keyof CompletionCodes, string>>,
): Promise<{ codes: CompletionCodes }> {
  const changes = CODE_KEYS.flatMap((key) => {
    const code = codes[key]?.trim();
    return code ? [{ pathway: pathwayOfCodeKey(key), code }] : [];
  });
  await deps.database.db.transaction().execute(async (trx) => {
    if (!(await updateExperimentRow(trx, id, { updated_at: deps.clock().toISOString() }))) {
      throw notFound(EXPERIMENT_NOT_FOUND);
    }
    await saveCompletionCodes(trx, id, changes);
  });
  return { codes: (await getExperiment(deps, id)).completion_codes };
}

/** An admin's read of a pathway's code, with the experiment (404 when it does not exist). */
async function anyCode(deps: AppDeps, experimentId: string, pathway: Pathway): Promise<string | null> {
  const { experimentExists, code } = await findExperimentCode(deps.database.db, experimentId, pathway);
  if (!experimentExists) throw notFound(EXPERIMENT_NOT_FOUND);
  return code;
}

/**
 * A participant's code: read with their facts and given only once the pathway is earned (one statement). Before
 * they joined: 404 for an experiment that does not exist, else 403 PATHWAY_NOT_EARNED.
 */
async function participantCode(
  deps: AppDeps,
  requester: Requester,
  experimentId: string,
  pathway: Pathway,
): Promise<string | null> {
  const earned = await earnedCode(deps, requester.userId, experimentId, pathway);
  if (earned) return earned.code;
  if (!(await findExperimentById(deps.database.db, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  throw pathwayNotEarned(pathway);
}

/**
 * The completion code for a pathway: admins may read any; a participant only the one their own
 * records show they earned (403 PATHWAY_NOT_EARNED otherwise). 404 CODE_NOT_CONFIGURED when unset.
 */
export async function getCompletionCode(
  deps: AppDeps,
  requester: Requester,
  experimentId: string,
  pathway: Pathway,
): Promise<{ code: string; pathway: Pathway; key: (typeof CODE_KEYS)[number] }> {
  const code = requester.isAdmin
    ? await anyCode(deps, experimentId, pathway)
    : await participantCode(deps, requester, experimentId, pathway);
  const key = PATHWAY_CODE_KEY[pathway];
  if (code === null) {
    throw new AppError(
      404,
      'CODE_NOT_CONFIGURED',
      'A completion code has not been configured for this pathway. Please contact the research team.',
    );
  }
  return { code, pathway, key };
}

/** The experiment's own chat limits (null where the default applies); the chat module resolves them. */
export async function chatLimitOverridesOf(deps: AppDeps, id: string): Promise<ChatLimitOverrides> {
  const overrides = await findChatLimitOverrides(deps.database.db, id);
  if (!overrides) throw notFound(EXPERIMENT_NOT_FOUND);
  return overrides;
}

/** Sets the chat limits that were sent (null: back to the default); the others keep their value. */
export async function updateChatLimitOverrides(
  deps: AppDeps,
  id: string,
  changes: Partial<ChatLimitOverrides>,
): Promise<void> {
  const update: Updateable<ExperimentsTable> = { updated_at: deps.clock().toISOString() };
  for (const key of Object.keys(CHAT_LIMIT_COLUMN) as (keyof ChatLimitOverrides)[]) {
    const value = changes[key];
    if (value !== undefined) update[CHAT_LIMIT_COLUMN[key]] = value;
  }
  if (!(await updateExperimentRow(deps.database.db, id, update))) throw notFound(EXPERIMENT_NOT_FOUND);
}

/** Every experiment's name, own chat budget and admit percent (null: the default applies). */
export async function experimentBudgets(
  deps: AppDeps,
): Promise<{ id: string; name: string; budgetUsd: number | null; admitPercent: number | null }[]> {
  const rows = await listExperimentBudgets(deps.database.db);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    budgetUsd: toNumberOrNull(r.chat_budget_usd),
    admitPercent: r.chat_admit_percent,
  }));
}

// The experiments module's public API for other modules (the chat reads an experiment's limits in its own
// transaction).
export { findChatLimitOverrides } from './experiments.repository.js';

/** A flow's pathway codes (issue 30): every code set for the experiment, by pathway. */
export function experimentCodes(deps: AppDeps, experimentId: string): Promise<Map<string, string>> {
  return listExperimentCodes(deps.database.db, experimentId);
}

/** Sets a flow's pathway codes (the caller checked the keys against the pinned flow); 404 for no experiment. */
export async function saveFlowCodes(
  deps: AppDeps,
  experimentId: string,
  codes: readonly { pathway: string; code: string }[],
): Promise<void> {
  await deps.database.db.transaction().execute(async (trx) => {
    if (!(await updateExperimentRow(trx, experimentId, { updated_at: deps.clock().toISOString() }))) {
      throw notFound(EXPERIMENT_NOT_FOUND);
    }
    await saveCompletionCodes(trx, experimentId, codes);
  });
}
