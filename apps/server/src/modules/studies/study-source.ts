import { studyDefinition, type StudyDefinition } from '@studychat/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { findExperimentStudy } from './studies.repository.js';
import { parseDefinition } from './studies.mapper.js';

/** The built-in study (the MMR study): the seeded default version, with a fixed id. */
export const DEFAULT_STUDY_VERSION_ID = '00000000-0000-4000-8000-000000000001';
export const DEFAULT_STUDY_VERSION_LABEL = 'Built-in MMR study';

/** The study an experiment runs and the version it comes from (null: not pinned yet, the built-in study). */
export interface ExperimentStudy {
  versionId: string | null;
  definition: StudyDefinition;
}

// A version's definition does not change once a participant runs it, and a draft changes rarely: the parsed
// definition is kept per version and its stored text, so a journey read does not parse the JSON again.
const parsed = new Map<string, { text: string; definition: StudyDefinition }>();
const PARSED_MAX = 50;

function parseCached(versionId: string, text: string): StudyDefinition {
  const hit = parsed.get(versionId);
  if (hit && hit.text === text) return hit.definition;
  const definition = parseDefinition(text);
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(versionId, { text, definition });
  return definition;
}

/** The study of the experiment's pinned version; the built-in study for an unknown or unpinned experiment. */
export async function loadExperimentStudy(db: Kysely<DB>, experimentId: string): Promise<ExperimentStudy> {
  const row = await findExperimentStudy(db, experimentId);
  if (!row?.versionId || row.definition === null)
    return { versionId: row?.versionId ?? null, definition: studyDefinition };
  return { versionId: row.versionId, definition: parseCached(row.versionId, row.definition) };
}
