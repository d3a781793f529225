import { isFlowDefinition, studyDefinition, type FlowDefinition, type StudyDefinition } from '@studychat/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { FlowSource, StudySource } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import { findExperimentStudy } from './studies.repository.js';
import { parseDefinition } from './studies.mapper.js';

/** The built-in study (the MMR study): the seeded default version, with a fixed id. */
export const DEFAULT_STUDY_VERSION_ID = '00000000-0000-4000-8000-000000000001';
export const DEFAULT_STUDY_VERSION_LABEL = 'Built-in MMR study';

/** The study an experiment runs and the version it comes from (null: not pinned yet, the built-in study). */
export interface ExperimentStudy {
  versionId: string | null;
  /** A study in the built-in shape, or a flow of steps (issue 30). */
  definition: StudyDefinition | FlowDefinition;
}

// A version's definition does not change once a participant runs it, and a draft changes rarely: the parsed
// definition is kept per version and its stored text, so a journey read does not parse the JSON again.
const parsed = new Map<string, { text: string; definition: StudyDefinition | FlowDefinition }>();
const PARSED_MAX = 50;

function parseCached(versionId: string, text: string): StudyDefinition | FlowDefinition {
  const hit = parsed.get(versionId);
  if (hit && hit.text === text) return hit.definition;
  const definition = parseDefinition(text);
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(versionId, { text, definition });
  return definition;
}

/** The study of the experiment's pinned version; the built-in study for an unknown or unpinned experiment. */
export async function loadExperimentStudy(db: Kysely<DB>, experimentId: string): Promise<ExperimentStudy> {
  return (await readExperimentStudy(db, experimentId)).study;
}

async function readExperimentStudy(
  db: Kysely<DB>,
  experimentId: string,
): Promise<{ study: ExperimentStudy; locked: boolean }> {
  const row = await findExperimentStudy(db, experimentId);
  if (!row?.versionId || row.definition === null)
    return { study: { versionId: row?.versionId ?? null, definition: studyDefinition }, locked: false };
  return {
    study: { versionId: row.versionId, definition: parseCached(row.versionId, row.definition) },
    locked: row.locked,
  };
}

const LOCKED_MAX = 1000;

/**
 * The study source of one database (deps.studies). Once an experiment has a real participant (or a
 * withdrawal), neither its pin nor its version's definition can change again (studies.service refuses both),
 * so its study is kept in this process and the participant's requests read no study at all. Until then
 * (drafting and previews) every call reads the database, so an edit or a new pin shows at once in every
 * process.
 */
export function createStudySource(db: Kysely<DB>): (experimentId: string) => Promise<ExperimentStudy> {
  const locked = new Map<string, ExperimentStudy>();
  return async (experimentId) => {
    const hit = locked.get(experimentId);
    if (hit) return hit;
    const read = await readExperimentStudy(db, experimentId);
    if (read.locked) {
      if (locked.size >= LOCKED_MAX) locked.clear();
      locked.set(experimentId, read.study);
    }
    return read.study;
  };
}

/** 409 FLOW_STUDY: a route of the built-in shape asked about an experiment whose study is a flow. */
export const FLOW_STUDY_MESSAGE =
  'This experiment runs a study written as a flow of steps: its pages and downloads are the flow’s own.';

/**
 * The study of the version each experiment pins (the built-in study for an experiment without one): deps.studies
 * for the spec's routes (409 FLOW_STUDY for a flow), deps.flows for the flow's (null for the built-in shape).
 */
export function databaseStudies(database: Database): { studies: StudySource; flows: FlowSource } {
  const load = createStudySource(database.db);
  return {
    studies: async (experimentId) => {
      const { definition } = await load(experimentId);
      if (isFlowDefinition(definition)) throw new AppError(409, 'FLOW_STUDY', FLOW_STUDY_MESSAGE);
      return definition;
    },
    flows: async (experimentId) => {
      const { definition } = await load(experimentId);
      return isFlowDefinition(definition) ? definition : null;
    },
  };
}
