import { CONDITIONS, type DetailedParticipantRow, type ParticipantSummary } from '@studychat/contracts';
import type { Database } from '../../db/database.js';
import { toNumber } from '../../db/values.js';
import { notFound } from '../../lib/errors.js';
import { countAssignmentsByCondition, experimentExists, listParticipantBase } from './analytics.repository.js';
import { loadChatActivity, loadSurveyAnswers } from './participant-facts.js';
import { toDetailedRow, toParticipantRecord } from './participant-record.js';

async function requireExperiment(database: Database, experimentId: string): Promise<void> {
  if (!(await experimentExists(database.db, experimentId))) throw notFound('Experiment not found');
}

/**
 * Participants of an experiment: `total` counts every assignment, assigned or not; `conditions` has every
 * study condition (0 when empty). Participants without a condition are in `total` only, so there is no
 * 'unassigned' key: unassigned = total minus the sum of the conditions.
 */
export async function participantSummary(database: Database, experimentId: string): Promise<ParticipantSummary> {
  await requireExperiment(database, experimentId);
  const rows = await countAssignmentsByCondition(database.db, experimentId);
  const conditions: Record<string, number> = Object.fromEntries(CONDITIONS.map((c) => [c, 0]));
  let total = 0;
  for (const row of rows) {
    const n = toNumber(row.n);
    total += n;
    if (row.condition !== null) conditions[row.condition] = (conditions[row.condition] ?? 0) + n;
  }
  return { total, conditions };
}

/**
 * One row per participant, in enrolment order. Three set-based reads whatever the study size:
 * assignments with their logins, baseline and post answers, and the participants' chat messages (read
 * page by page, counted like the chat's progress rule).
 */
export async function participantsDetailed(
  database: Database,
  experimentId: string,
): Promise<DetailedParticipantRow[]> {
  await requireExperiment(database, experimentId);
  const { db } = database;
  const scope = { experimentId };
  const [base, surveys, chat] = await Promise.all([
    listParticipantBase(db, experimentId),
    loadSurveyAnswers(db, scope, ['baseline', 'post']),
    loadChatActivity(db, scope),
  ]);
  return base.map((row) => toDetailedRow(toParticipantRecord(experimentId, row, { surveys, chat })));
}
