import type { Experiment } from '@studychat/contracts';
import type { ExperimentRow } from '../../db/schema.js';
import { toIso } from '../../db/values.js';

/** The one place an experiments row becomes the API's Experiment. */
export function toExperiment(row: ExperimentRow): Experiment {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    completion_codes: {
      complete: row.code_complete,
      exitnoqualms: row.code_exitnoqualms,
      exitceiling: row.code_exitceiling,
    },
    study_version_id: row.study_version_id,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}
