import { toExperimentState, type CompletionCodes, type Experiment } from '@studychat/contracts';
import type { ExperimentRow } from '../../db/schema.js';
import { toIso } from '../../db/values.js';

/** The one place an experiments row becomes the API's Experiment. */
export function toExperiment(row: ExperimentRow, codes: CompletionCodes): Experiment {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    completion_codes: { ...codes },
    study_version_id: row.study_version_id,
    state: toExperimentState(row.state),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}
