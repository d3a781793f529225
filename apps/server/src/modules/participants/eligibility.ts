import type { Kysely } from 'kysely';
import { LIKERT_MAX, type Pathway } from '@studychat/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { baselineIntention, entryChoice, hasSurvey } from '../surveys/survey-answers.js';

const NOT_EARNED: Record<Pathway, string> = {
  confirm: 'This completion code is only available to participants who said they have no concerns.',
  ceiling: 'This completion code is only available to participants who answered the intention question with 7.',
  complete: 'This completion code is only available after finishing the study, including the last survey.',
};

/** Whether the participant's stored responses earn this completion pathway (DESIGN.md section 5). */
export async function isPathwayEarned(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
  pathway: Pathway,
): Promise<boolean> {
  switch (pathway) {
    case 'confirm':
      return (await entryChoice(db, userId, experimentId)) === 'confirm';
    case 'ceiling':
      return (await baselineIntention(db, userId, experimentId)) === LIKERT_MAX;
    case 'complete':
      return hasSurvey(db, userId, experimentId, 'post');
  }
}

/** Throws 403 PATHWAY_NOT_EARNED with a clear message when the pathway was not earned. */
export async function assertPathwayEarned(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
  pathway: Pathway,
): Promise<void> {
  if (!(await isPathwayEarned(db, userId, experimentId, pathway))) {
    throw new AppError(403, 'PATHWAY_NOT_EARNED', NOT_EARNED[pathway]);
  }
}
