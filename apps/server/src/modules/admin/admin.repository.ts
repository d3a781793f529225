import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { SortOrder, UserSortField } from '@studychat/contracts';
import { byteOrder } from '../../db/dialect.js';
import type { AssignmentRow, ChatMessageRow, ChatThreadRow, DB, SurveyResponseRow, UserRow } from '../../db/schema.js';
import { experimentHidden, participantHidden } from '../members/visibility.js';
import type { ThreadSummaryRow } from './admin.mapper.js';

// Every read takes `hidden`: the members-only experiments the caller is not on (docs/decisions/0087). A
// participant tied only to those is not found, and a visible participant's rows of them are left out.

/** A user row and whether the user is a test participant (the `is_test` expression below). */
export type UserWithTestFlag = UserRow & { is_test: boolean | number };

/**
 * Whether the user ran an experiment as a test participant ("preview as participant", docs/decisions/0045,
 * 0057): a preview login's only assignment is flagged `is_test`.
 */
function isTestUser(eb: ExpressionBuilder<DB, 'users'>) {
  return eb.exists(
    eb
      .selectFrom('assignments as ta')
      .select('ta.id')
      .whereRef('ta.user_id', '=', 'users.id')
      .where('ta.is_test', '=', true),
  );
}

/** One user with the test flag, or undefined. */
export function findUserWithTestFlag(
  db: Kysely<DB>,
  userId: string,
  hidden: readonly string[],
): Promise<UserWithTestFlag | undefined> {
  return db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) => isTestUser(eb).as('is_test'))
    .where('users.id', '=', userId)
    .$if(hidden.length > 0, (q) => q.where(({ not }) => not(participantHidden(hidden, 'users.id'))))
    .executeTakeFirst();
}

/**
 * All users in the requested order. Never-logged-in users (null last_login_at) come last in both
 * directions; ties fall back to id so the order is stable. Text is compared byte-wise on PostgreSQL too
 * (collation "C"), so both databases sort emails and ids alike.
 */
export function listUsersSorted(
  db: Kysely<DB>,
  sortBy: UserSortField,
  order: SortOrder,
  hidden: readonly string[],
): Promise<UserWithTestFlag[]> {
  const column = sql.ref(`users.${sortBy}`);
  const textColumn = sortBy === 'id' || sortBy === 'email';
  const key = textColumn ? byteOrder(db, column) : column;
  const tieBreak = byteOrder(db, sql.ref('users.id'));
  return db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) => isTestUser(eb).as('is_test'))
    .$if(hidden.length > 0, (q) => q.where(({ not }) => not(participantHidden(hidden, 'users.id'))))
    .orderBy(sql`case when ${column} is null then 1 else 0 end`)
    .orderBy(key, order)
    .orderBy(tieBreak, 'asc')
    .execute();
}

/** The user's chat threads with their message count and last message time, newest thread first. */
export function listThreadsForUser(
  db: Kysely<DB>,
  userId: string,
  hidden: readonly string[],
): Promise<ThreadSummaryRow[]> {
  return db
    .selectFrom('chat_threads as t')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('chat_messages as m')
          .innerJoin('chat_threads as ut', 'ut.id', 'm.thread_id')
          .where('ut.user_id', '=', userId)
          .select((e) => [
            'm.thread_id',
            e.fn.countAll<number | string>().as('message_count'),
            e.fn.max('m.created_at').as('last_message_at'),
          ])
          .groupBy('m.thread_id')
          .as('stats'),
      (join) => join.onRef('stats.thread_id', '=', 't.id'),
    )
    .where('t.user_id', '=', userId)
    .$if(hidden.length > 0, (q) => q.where(({ not }) => not(experimentHidden(hidden, 't.experiment_id'))))
    .select([
      't.id',
      't.experiment_id',
      't.title',
      't.condition',
      't.created_at',
      'stats.message_count',
      'stats.last_message_at',
    ])
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id')
    .execute();
}

export function findThreadOfUser(
  db: Kysely<DB>,
  userId: string,
  threadId: string,
  hidden: readonly string[],
): Promise<ChatThreadRow | undefined> {
  return db
    .selectFrom('chat_threads')
    .selectAll()
    .where('id', '=', threadId)
    .where('user_id', '=', userId)
    .$if(hidden.length > 0, (q) => q.where(({ not }) => not(experimentHidden(hidden, 'chat_threads.experiment_id'))))
    .executeTakeFirst();
}

/** A thread's messages in conversation order. */
export function listThreadMessages(db: Kysely<DB>, threadId: string): Promise<ChatMessageRow[]> {
  return db.selectFrom('chat_messages').selectAll().where('thread_id', '=', threadId).orderBy('position').execute();
}

export function listAssignmentsForUser(
  db: Kysely<DB>,
  userId: string,
  hidden: readonly string[],
): Promise<AssignmentRow[]> {
  return db
    .selectFrom('assignments')
    .selectAll()
    .where('user_id', '=', userId)
    .$if(hidden.length > 0, (q) => q.where(({ not }) => not(experimentHidden(hidden, 'assignments.experiment_id'))))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function listSurveyResponsesForUser(
  db: Kysely<DB>,
  userId: string,
  hidden: readonly string[],
): Promise<SurveyResponseRow[]> {
  return db
    .selectFrom('survey_responses')
    .selectAll()
    .where('user_id', '=', userId)
    .$if(hidden.length > 0, (q) =>
      q.where(({ not }) => not(experimentHidden(hidden, 'survey_responses.experiment_id'))),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
