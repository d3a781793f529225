import type {
  AdminMessage,
  AdminThread,
  AdminUser,
  Assignment,
  SortOrder,
  SurveyResponse,
  UserSortField,
} from '@studychat/contracts';
import type { Database } from '../../db/database.js';
import { notFound } from '../../lib/errors.js';
import { toAssignment } from '../journey/assignment.mapper.js';
import { toAdminMessage, toAdminThread, toAdminUser, toSurveyResponse } from './admin.mapper.js';
import {
  findThreadOfUser,
  listAssignmentsForUser,
  listSurveyResponsesForUser,
  listThreadMessages,
  listThreadsForUser,
  findUserWithTestFlag,
  listUsersSorted,
} from './admin.repository.js';

// Read models for the admin area. Every per-user read answers 404 for an unknown user, so an admin page
// for a mistyped id says "not found" rather than showing empty lists. `hidden` is the members-only experiments
// the caller is not on (docs/decisions/0087): a participant tied only to them is unknown to the caller, exactly as
// a missing one, and a visible participant's threads, assignments and answers in them are left out.

type Hidden = readonly string[];

export async function listUsers(
  database: Database,
  sortBy: UserSortField,
  order: SortOrder,
  hidden: Hidden,
): Promise<AdminUser[]> {
  const rows = await listUsersSorted(database.db, sortBy, order, hidden);
  return rows.map(toAdminUser);
}

export async function getUser(database: Database, userId: string, hidden: Hidden): Promise<AdminUser> {
  const row = await findUserWithTestFlag(database.db, userId, hidden);
  if (!row) throw notFound('User not found');
  return toAdminUser(row);
}

async function requireUser(database: Database, userId: string, hidden: Hidden): Promise<void> {
  if (!(await findUserWithTestFlag(database.db, userId, hidden))) throw notFound('User not found');
}

export async function getUserThreads(database: Database, userId: string, hidden: Hidden): Promise<AdminThread[]> {
  await requireUser(database, userId, hidden);
  const rows = await listThreadsForUser(database.db, userId, hidden);
  return rows.map(toAdminThread);
}

/** A thread's messages; a thread that belongs to another user is answered like a missing one. */
export async function getThreadMessages(
  database: Database,
  userId: string,
  threadId: string,
  hidden: Hidden,
): Promise<AdminMessage[]> {
  if (!(await findThreadOfUser(database.db, userId, threadId, hidden))) throw notFound('Thread not found');
  const rows = await listThreadMessages(database.db, threadId);
  return rows.map(toAdminMessage);
}

export async function getUserAssignments(database: Database, userId: string, hidden: Hidden): Promise<Assignment[]> {
  await requireUser(database, userId, hidden);
  const rows = await listAssignmentsForUser(database.db, userId, hidden);
  return rows.map(toAssignment);
}

export async function getUserSurveyResponses(
  database: Database,
  userId: string,
  hidden: Hidden,
): Promise<SurveyResponse[]> {
  await requireUser(database, userId, hidden);
  const rows = await listSurveyResponsesForUser(database.db, userId, hidden);
  return rows.flatMap((row) => {
    const response = toSurveyResponse(row);
    return response ? [response] : [];
  });
}
