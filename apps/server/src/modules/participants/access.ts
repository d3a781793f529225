import type { Kysely } from 'kysely';
import type { AssignmentRow, DB } from '../../db/schema.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { findAssignment } from './assignments.repository.js';

import type { Requester } from '../../lib/context.js';
import { NO_PARTICIPATION } from '../journey/journey-errors.js';

/** A participant reads only their own records; admins may read anyone's. */
export function assertSelfOrAdmin(requester: Requester, userId: string): void {
  if (requester.userId !== userId && !requester.isAdmin) {
    throw forbidden('You can only access your own study records');
  }
}

/**
 * Study records are written by their participant only, admins included: an admin tries the study as their own
 * account or through "Preview as participant" (docs/decisions/0074-hardening.md).
 */
export function assertSelf(requester: Requester, userId: string): void {
  if (requester.userId !== userId) {
    throw forbidden(
      'You can only write your own study records. To try the study, use "Preview as participant" or your own login.',
    );
  }
}

/** The caller's own assignment for the experiment, or 404. */
export async function requireAssignment(db: Kysely<DB>, userId: string, experimentId: string): Promise<AssignmentRow> {
  const row = await findAssignment(db, userId, experimentId);
  if (!row) throw notFound(NO_PARTICIPATION);
  return row;
}

export function prolificMismatch(): AppError {
  return new AppError(
    403,
    'PROLIFIC_ID_MISMATCH',
    'This study login is already linked to a different Prolific ID. Please use the study login provided to you for this Prolific account.',
  );
}

export function prolificIdTaken(): AppError {
  return new AppError(
    409,
    'PROLIFIC_ID_TAKEN',
    'This Prolific ID is already taking part in this study with another study login. Please log in with the study login you used first, or contact the research team.',
  );
}

/** A Prolific id whose data was withdrawn from this experiment cannot start it again (docs/decisions/0026). */
export function prolificIdWithdrawn(): AppError {
  return new AppError(
    403,
    'PROLIFIC_ID_WITHDRAWN',
    'This Prolific ID has withdrawn from this study and its data was deleted, so it cannot take part again. Please contact the research team if you think this is a mistake.',
  );
}
