import { PATHWAYS, STRATA, type Assignment, type CompletionStatus } from '@studychat/contracts';
import type { AssignmentRow } from '../../db/schema.js';
import { toBool, toIso, toIsoOrNull } from '../../db/values.js';

/** What the completion status shows of an assignment. */
export type CompletionColumns = Pick<AssignmentRow, 'completed_at' | 'completion_pathway' | 'completion_code'>;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return values.find((v) => v === value) ?? null;
}

/** The one place an assignments row becomes the API's Assignment. */
export function toAssignment(row: AssignmentRow): Assignment {
  return {
    id: row.id,
    user_id: row.user_id,
    experiment_id: row.experiment_id,
    prolific_pid: row.prolific_pid,
    study_id: row.study_id,
    session_id: row.session_id,
    // Written only by the assignment step, from the pinned version's conditions (docs/decisions/0061).
    assigned_condition: row.assigned_condition,
    stratum: oneOf(STRATA, row.stratum),
    condition_assigned_at: toIsoOrNull(row.condition_assigned_at),
    consent_given: toBool(row.consent_given),
    consent_timestamp: toIsoOrNull(row.consent_timestamp),
    created_at: toIso(row.created_at),
    intervention_completed_timestamp: toIsoOrNull(row.intervention_completed_timestamp),
    completion_pathway: oneOf(PATHWAYS, row.completion_pathway),
    completed_at: toIsoOrNull(row.completed_at),
  };
}

/** The completion status of an assignment (not completed when there is none). */
export function toCompletionStatus(row: CompletionColumns | undefined): CompletionStatus {
  const completed = row !== undefined && row.completed_at !== null;
  return {
    alreadyCompleted: completed,
    completionPathway: completed ? oneOf(PATHWAYS, row.completion_pathway) : null,
    completionCode: completed ? row.completion_code : null,
  };
}
