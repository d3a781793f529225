import { CONDITIONS, type StudyDefinition } from '@studychat/contracts';
import { AppError, badRequest } from '../../lib/errors.js';
import type { AppDeps } from '../../lib/deps.js';
import { requireAssignment } from './access.js';

export interface ExposureInput {
  experimentId: string;
  sectionIndex: number;
  secondsOnScreen: number;
}

/**
 * Records when a static section was completed (server clock) and how long it was on screen, with
 * the section's id and minimum seconds from the study definition. Once per section: a repeat keeps
 * the first record.
 */
export async function recordExposure(
  deps: AppDeps,
  study: StudyDefinition,
  userId: string,
  input: ExposureInput,
): Promise<{ ok: true; sectionIndex: number }> {
  const { db } = deps.database;
  const assignment = await requireAssignment(db, userId, input.experimentId);
  const condition = CONDITIONS.find((c) => c === assignment.assigned_condition);
  if (!condition) {
    throw new AppError(
      409,
      'NO_CONDITION',
      'No study condition has been assigned yet. Please complete the survey first.',
    );
  }
  const sections = study.conditions[condition].sections;
  const section = sections[input.sectionIndex];
  if (!section) {
    throw badRequest(
      `sectionIndex ${input.sectionIndex} is out of range: this condition has ${sections.length} sections`,
    );
  }
  await db
    .insertInto('section_exposures')
    .values({
      id: deps.newId(),
      user_id: userId,
      experiment_id: input.experimentId,
      condition,
      section_index: input.sectionIndex,
      section_id: section.id,
      min_seconds: section.minSeconds,
      seconds_on_screen: input.secondsOnScreen,
      completed_at: deps.clock().toISOString(),
    })
    .onConflict((oc) => oc.columns(['user_id', 'experiment_id', 'section_index']).doNothing())
    .execute();
  return { ok: true, sectionIndex: input.sectionIndex };
}
