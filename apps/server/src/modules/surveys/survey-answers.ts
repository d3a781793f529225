import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { parseJsonObject } from '../../db/values.js';
import { findSurveyResponse } from './surveys.repository.js';

// Reads the answers that the participant flow's rules depend on from the stored responses.

/** The entry choice ('confirm' or 'questions'), or null when no entry survey exists. */
export async function entryChoice(db: Kysely<DB>, userId: string, experimentId: string): Promise<string | null> {
  const row = await findSurveyResponse(db, userId, experimentId, 'entry');
  const choice = row ? parseJsonObject(row.responses)?.choice : undefined;
  return typeof choice === 'string' ? choice : null;
}

/** The baseline intention 1-7, or null when no baseline survey exists. */
export async function baselineIntention(db: Kysely<DB>, userId: string, experimentId: string): Promise<number | null> {
  const row = await findSurveyResponse(db, userId, experimentId, 'baseline');
  const value = row ? Number(parseJsonObject(row.responses)?.vaccination_intention) : Number.NaN;
  return Number.isInteger(value) ? value : null;
}

export async function hasSurvey(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
  surveyType: 'pre' | 'post',
): Promise<boolean> {
  return (await findSurveyResponse(db, userId, experimentId, surveyType)) !== undefined;
}
