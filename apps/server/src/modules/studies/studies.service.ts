import {
  isFlowDefinition,
  studyDefinition,
  validateFlowDefinition,
  validateStudyDefinition,
  type FlowDefinition,
  type ParticipantStudy,
  type StudyDefinition,
  type StudyVersion,
  type StudyVersionSummary,
} from '@studychat/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { PriceTable } from '../../llm/pricing.js';
import { providersAvailable } from '../../llm/model-choice.js';
import { unpricedModels } from './study-prices.js';
import { unavailableProviders } from './study-providers.js';
import { parseDefinition, toStudyVersion, toStudyVersionSummary } from './studies.mapper.js';
import {
  countPinningExperiments,
  deleteVersionRow,
  experimentHasParticipants,
  findVersionRow,
  insertVersionRow,
  insertVersionRowOnce,
  isVersionLocked,
  listVersionRows,
  lockExperimentRow,
  lockVersionRow,
  pinExperimentVersion,
  pinUnpinnedExperiments,
  updateVersionRow,
  versionEverRun,
} from './studies.repository.js';
import {
  DEFAULT_STUDY_VERSION_ID,
  DEFAULT_STUDY_VERSION_LABEL,
  FLOW_STUDY_MESSAGE,
  loadExperimentStudy,
} from './study-source.js';

export const STUDY_VERSION_NOT_FOUND = 'Study version not found';

/** Writes the built-in study as the default version (once) and pins it to every experiment without one. */
export async function ensureDefaultStudyVersion(db: Kysely<DB>, now: string): Promise<string> {
  await insertVersionRowOnce(db, {
    id: DEFAULT_STUDY_VERSION_ID,
    label: DEFAULT_STUDY_VERSION_LABEL,
    definition: JSON.stringify(studyDefinition),
    parent_id: null,
    is_default: true,
    created_by: null,
    created_at: now,
    updated_at: now,
  });
  await pinUnpinnedExperiments(db, DEFAULT_STUDY_VERSION_ID);
  return DEFAULT_STUDY_VERSION_ID;
}

/** A definition in the built-in shape, or a flow of steps (`format: 'flow'`, issue 30). */
function validate(value: unknown) {
  return isFlowDefinition(value) ? validateFlowDefinition(value) : validateStudyDefinition(value);
}

/** 400 STUDY_INVALID listing every problem with its path. */
function invalid(issues: { path: string; message: string }[]): AppError {
  const first = issues[0];
  const where = first?.path ? `${first.path}: ` : '';
  return new AppError(
    400,
    'STUDY_INVALID',
    `The study definition is not valid (${where}${first?.message ?? 'invalid'})`,
    undefined,
    { issues },
  );
}

/**
 * The definition, checked; with a price table, a condition's model with no known price is a problem too
 * (docs/decisions/0073). 400 STUDY_INVALID lists every problem with its path.
 */
function checkDefinition(value: unknown, prices: PriceTable | null): StudyDefinition | FlowDefinition {
  const result = validate(value);
  if (!result.ok) throw invalid(result.issues);
  const unpriced = prices ? unpricedModels(result.definition, prices) : [];
  if (unpriced.length > 0) throw invalid(unpriced);
  return result.definition;
}

/** The definition's problems without saving it (the editor's check as the researcher types); none when valid. */
export function checkStudyDefinition(
  value: unknown,
  prices: PriceTable,
): { issues: { path: string; message: string }[] } {
  const result = validate(value);
  return { issues: result.ok ? unpricedModels(result.definition, prices) : result.issues };
}

async function usage(db: Kysely<DB>, id: string) {
  return { experiments: await countPinningExperiments(db, id), locked: await isVersionLocked(db, id) };
}

export async function listStudyVersions(deps: AppDeps): Promise<StudyVersionSummary[]> {
  await ensureDefaultStudyVersion(deps.database.db, deps.clock().toISOString());
  return (await listVersionRows(deps.database.db)).map(toStudyVersionSummary);
}

export async function getStudyVersion(deps: AppDeps, id: string): Promise<StudyVersion> {
  const db = deps.database.db;
  const row = await findVersionRow(db, id);
  if (!row) throw notFound(STUDY_VERSION_NOT_FOUND);
  return toStudyVersion(row, await usage(db, id));
}

/** A new version; `prices` null leaves the models' prices unchecked (a clone: its copy is checked when saved or pinned). */
export async function createStudyVersion(
  deps: AppDeps,
  input: { label: string; definition: unknown },
  userId: string,
  prices: PriceTable | null,
  parentId: string | null = null,
): Promise<StudyVersion> {
  const definition = checkDefinition(input.definition, prices);
  const now = deps.clock().toISOString();
  const id = deps.newId();
  await insertVersionRow(deps.database.db, {
    id,
    label: input.label,
    definition: JSON.stringify(definition),
    parent_id: parentId,
    is_default: false,
    created_by: userId,
    created_at: now,
    updated_at: now,
  });
  return getStudyVersion(deps, id);
}

export async function cloneStudyVersion(
  deps: AppDeps,
  id: string,
  label: string | undefined,
  userId: string,
): Promise<StudyVersion> {
  const source = await getStudyVersion(deps, id);
  return createStudyVersion(
    deps,
    { label: label ?? `${source.label} (copy)`, definition: source.definition },
    userId,
    null,
    id,
  );
}

/**
 * Runs inside the write's transaction after its in-use check and before its write: tests hold the transaction
 * open there to interleave a participant's join (docs/decisions/0063). Routes never pass one.
 */
export type AfterCheck = (trx: Kysely<DB>) => Promise<void>;

/**
 * Changes a version's label and/or definition. The built-in version never changes, and a version a
 * participant ran cannot change: 409 STUDY_VERSION_IN_USE (clone it to edit). The version row is locked
 * first, so a first participant's join (whose stamp's foreign-key check locks the same row) is either
 * seen by the check or waits for the edit to commit and then runs the edited version (0063).
 */
export async function updateStudyVersion(
  deps: AppDeps,
  id: string,
  input: { label?: string | undefined; definition?: unknown },
  prices: PriceTable,
  afterCheck?: AfterCheck,
): Promise<StudyVersion> {
  const definition = input.definition === undefined ? undefined : checkDefinition(input.definition, prices);
  await deps.database.db.transaction().execute(async (trx) => {
    const row = await lockVersionRow(trx, id);
    if (!row) throw notFound(STUDY_VERSION_NOT_FOUND);
    if (row.is_default === true || row.is_default === 1) {
      throw new AppError(409, 'STUDY_VERSION_IN_USE', 'The built-in study cannot change: clone it to edit');
    }
    if (await isVersionLocked(trx, id)) {
      throw new AppError(
        409,
        'STUDY_VERSION_IN_USE',
        'This study version has participants and cannot change: clone it to edit',
      );
    }
    await afterCheck?.(trx);
    await updateVersionRow(trx, id, {
      ...(input.label !== undefined ? { label: input.label } : {}),
      ...(definition !== undefined ? { definition: JSON.stringify(definition) } : {}),
      updated_at: deps.clock().toISOString(),
    });
  });
  return getStudyVersion(deps, id);
}

/**
 * Deletes a version no experiment pins and nobody ran, a preview included (docs/decisions/0077): a failed edit's
 * "(copy)". 409 STUDY_VERSION_IN_USE for the built-in study or a version someone ran, 409 STUDY_VERSION_PINNED
 * while an experiment pins it. The row is locked first, as an edit locks it, so a first join waits or is seen.
 */
export async function deleteStudyVersion(deps: AppDeps, id: string): Promise<{ id: string }> {
  await deps.database.db.transaction().execute(async (trx) => {
    const row = await lockVersionRow(trx, id);
    if (!row) throw notFound(STUDY_VERSION_NOT_FOUND);
    if (row.is_default === true || row.is_default === 1) {
      throw new AppError(409, 'STUDY_VERSION_IN_USE', 'The built-in study cannot be deleted.');
    }
    const pinned = await countPinningExperiments(trx, id);
    if (pinned > 0) {
      throw new AppError(
        409,
        'STUDY_VERSION_PINNED',
        `${pinned === 1 ? 'An experiment runs' : `${pinned} experiments run`} this study version: pin another version to ${pinned === 1 ? 'it' : 'them'} (or delete ${pinned === 1 ? 'it' : 'them'}) before deleting this one.`,
      );
    }
    if (await versionEverRun(trx, id)) {
      throw new AppError(
        409,
        'STUDY_VERSION_IN_USE',
        'Participants (or a preview) ran this study version: it is kept with their data and cannot be deleted.',
      );
    }
    await deleteVersionRow(trx, id);
  });
  return { id };
}

/**
 * Pins a version to an experiment; refused once the experiment has participants (they ran the old one), while
 * a step names a provider this deployment has no key for (study-providers.ts), and
 * while a condition's model has no known price (400 STUDY_INVALID, 0073: a version saved before the rule, or
 * under other prices). The experiment row is locked first, so a first participant's join (which reads the pin
 * FOR KEY SHARE) is either seen by the check or waits and is stamped with the new pin (0063).
 */
export async function pinStudyVersion(
  deps: AppDeps,
  experimentId: string,
  versionId: string,
  prices: PriceTable,
  afterCheck?: AfterCheck,
): Promise<{ experiment_id: string; study_version_id: string }> {
  await deps.database.db.transaction().execute(async (trx) => {
    if (!(await lockExperimentRow(trx, experimentId))) throw notFound('Experiment not found');
    const version = await findVersionRow(trx, versionId);
    if (!version) throw notFound(STUDY_VERSION_NOT_FOUND);
    const definition = parseDefinition(version.definition);
    const unpriced = [
      ...unpricedModels(definition, prices),
      ...unavailableProviders(definition, providersAvailable(deps)),
    ];
    if (unpriced.length > 0) throw invalid(unpriced);
    if (await experimentHasParticipants(trx, experimentId)) {
      throw new AppError(
        409,
        'EXPERIMENT_HAS_PARTICIPANTS',
        'This experiment has participants: its study version cannot change. Create a new experiment instead.',
      );
    }
    await afterCheck?.(trx);
    await pinExperimentVersion(trx, experimentId, versionId, deps.clock().toISOString());
  });
  return { experiment_id: experimentId, study_version_id: versionId };
}

/**
 * What a participant's browser gets of an experiment's study: no chat prompts or scripted replies, no researchers'
 * names of the pathways. Who may read it is the caller's rule (participants.service.ts participantStudyView).
 */
export async function experimentStudyView(deps: AppDeps, experimentId: string): Promise<ParticipantStudy> {
  const { versionId, definition } = await loadExperimentStudy(deps.database.db, experimentId);
  if (isFlowDefinition(definition)) throw new AppError(409, 'FLOW_STUDY', FLOW_STUDY_MESSAGE);
  // The researchers' names of the pathways (docs/decisions/0056) stay here with the prompts.
  const { chat, pathways: _researchersOnly, ...content } = definition;
  // The completion rule is not secret (the page shows its targets); the prompts and model settings stay here.
  const { fallbackGreetings, completion } = chat;
  return { ...content, chat: { fallbackGreetings, ...(completion ? { completion } : {}) }, version_id: versionId };
}

// The studies module's public API for other modules.
export { findVersionRow as findStudyVersion } from './studies.repository.js';
