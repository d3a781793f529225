import type { DetailedParticipantRow, FullParticipantSummary } from '@studychat/contracts';
import type { Database } from '../../db/database.js';
import { toBool } from '../../db/values.js';
import type { AppDeps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import { getFullSummary, statusByUser } from '../monitor/monitor.service.js';
import { experimentExists, listParticipantBase } from './analytics.repository.js';
import { loadChatActivity, loadChatThreads, loadSurveyAnswers } from './participant-facts.js';
import { studiesById } from './package.repository.js';
import { toDetailedRow, toParticipantRecord } from './participant-record.js';

async function requireExperiment(database: Database, experimentId: string): Promise<void> {
  if (!(await experimentExists(database.db, experimentId))) throw notFound('Experiment not found');
}

/**
 * Participants of an experiment: the spec's `total` and `conditions` (every study condition, 0 when empty),
 * and the monitor's buckets, in which every participant is counted once (docs/decisions/0030).
 */
export function participantSummary(deps: AppDeps, experimentId: string): Promise<FullParticipantSummary> {
  return getFullSummary(deps, experimentId);
}

const CHAT_CHUNK = 1000;

/**
 * One row per participant, in enrolment order. Set-based whatever the study size: assignments with their
 * logins and the baseline and post answers in one query each, the participants' chat messages per 1,000
 * participants (their text is counted like the chat's progress rule, so one chunk's text at most is held).
 */
export async function participantsDetailed(deps: AppDeps, experimentId: string): Promise<DetailedParticipantRow[]> {
  const { database } = deps;
  await requireExperiment(database, experimentId);
  const { db } = database;
  // Test runs are listed too, marked (docs/decisions/0045); the summary and the chart leave them out.
  // The answers are read under the keys of the version each participant ran (docs/decisions/0047).
  const [base, surveys, statuses, study, versions] = await Promise.all([
    listParticipantBase(db, experimentId, true),
    loadSurveyAnswers(db, { experimentId }, ['baseline', 'post']),
    statusByUser(deps, experimentId),
    deps.studies(experimentId),
    studiesById(db, experimentId),
  ]);
  const rows: DetailedParticipantRow[] = [];
  for (let start = 0; start < base.length; start += CHAT_CHUNK) {
    const chunk = base.slice(start, start + CHAT_CHUNK);
    const scope = { experimentId, userIds: chunk.map((r) => r.user_id) };
    const [chat, threads] = await Promise.all([loadChatActivity(db, scope), loadChatThreads(db, scope)]);
    for (const row of chunk) {
      const record = toParticipantRecord(experimentId, row, { surveys, chat, threads, study, versions });
      const detailed = toDetailedRow(record, statuses.get(row.user_id) ?? 'in_progress');
      rows.push({ ...detailed, is_test: toBool(row.is_test) });
    }
  }
  return rows;
}
