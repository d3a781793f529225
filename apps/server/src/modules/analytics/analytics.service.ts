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

const CHAT_CHUNK = 1000;

/**
 * One row per participant, in enrolment order. Set-based whatever the study size: assignments with their
 * logins and the baseline and post answers in one query each, the participants' chat messages per 1,000
 * participants (their text is counted like the chat's progress rule, so one chunk's text at most is held).
 */
export async function participantsDetailed(
  database: Database,
  experimentId: string,
): Promise<DetailedParticipantRow[]> {
  await requireExperiment(database, experimentId);
  const { db } = database;
  const [base, surveys] = await Promise.all([
    listParticipantBase(db, experimentId),
    loadSurveyAnswers(db, { experimentId }, ['baseline', 'post']),
  ]);
  const rows: DetailedParticipantRow[] = [];
  for (let start = 0; start < base.length; start += CHAT_CHUNK) {
    const chunk = base.slice(start, start + CHAT_CHUNK);
    const chat = await loadChatActivity(db, { experimentId, userIds: chunk.map((r) => r.user_id) });
    for (const row of chunk) rows.push(toDetailedRow(toParticipantRecord(experimentId, row, { surveys, chat })));
  }
  return rows;
}
