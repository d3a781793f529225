import {
  isFlowDefinition,
  upgradeStudyDefinition,
  type FlowDefinition,
  type StoredStudyDefinition,
  type StudyDefinition,
  type StudyVersion,
  type StudyVersionSummary,
} from '@studychat/contracts';
import type { StudyVersionRow } from '../../db/schema.js';
import { toBool, toIso } from '../../db/values.js';
import type { StudyVersionListRow } from './studies.repository.js';

/**
 * The stored definition text to a definition (validated when written): a flow as stored, a study in the built-in
 * shape with older shapes upgraded (decision 0033).
 */
export function parseDefinition(text: string): StudyDefinition | FlowDefinition {
  const value = JSON.parse(text) as unknown;
  return isFlowDefinition(value) ? value : upgradeStudyDefinition(value as StoredStudyDefinition);
}

/** The one place a study_versions row becomes the API's summary. */
export function toStudyVersionSummary(row: StudyVersionListRow): StudyVersionSummary {
  const definition = parseDefinition(row.definition);
  return {
    id: row.id,
    label: row.label,
    study_id: definition.id,
    title: definition.title,
    parent_id: row.parent_id,
    is_default: toBool(row.is_default),
    experiments: row.experiments,
    locked: row.locked,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

export function toStudyVersion(row: StudyVersionRow, usage: { experiments: number; locked: boolean }): StudyVersion {
  return { ...toStudyVersionSummary({ ...row, ...usage }), definition: parseDefinition(row.definition) };
}
