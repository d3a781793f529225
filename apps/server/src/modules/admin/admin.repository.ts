import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { SortOrder, UserSortField } from '@studychat/contracts';
import { byteOrder } from '../../db/dialect.js';
import type { AssignmentRow, ChatMessageRow, ChatThreadRow, DB, SurveyResponseRow, UserRow } from '../../db/schema.js';
import type { ThreadSummaryRow } from './admin.mapper.js';

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
export function findUserWithTestFlag(db: Kysely<DB>, userId: string): Promise<UserWithTestFlag | undefined> {
  return db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) => isTestUser(eb).as('is_test'))
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

/**
 * All users in the requested order. Never-logged-in users (null last_login_at) come last in both
 * directions; ties fall back to id so the order is stable. Text is compared byte-wise on PostgreSQL too
 * (collation "C"), so both databases sort emails and ids alike.
 */
export function listUsersSorted(db: Kysely<DB>, sortBy: UserSortField, order: SortOrder): Promise<UserWithTestFlag[]> {
  const column = sql.ref(`users.${sortBy}`);
  const textColumn = sortBy === 'id' || sortBy === 'email';
  const key = textColumn ? byteOrder(db, column) : column;
  const tieBreak = byteOrder(db, sql.ref('users.id'));
  return db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) => isTestUser(eb).as('is_test'))
    .orderBy(sql`case when ${column} is null then 1 else 0 end`)
    .orderBy(key, order)
    .orderBy(tieBreak, 'asc')
    .execute();
}

/** The user's chat threads with their message count and last message time, newest thread first. */
export function listThreadsForUser(db: Kysely<DB>, userId: string): Promise<ThreadSummaryRow[]> {
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

export function findThreadOfUser(db: Kysely<DB>, userId: string, threadId: string): Promise<ChatThreadRow | undefined> {
  return db
    .selectFrom('chat_threads')
    .selectAll()
    .where('id', '=', threadId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** A thread's messages in conversation order. */
export function listThreadMessages(db: Kysely<DB>, threadId: string): Promise<ChatMessageRow[]> {
  return db.selectFrom('chat_messages').selectAll().where('thread_id', '=', threadId).orderBy('position').execute();
}

export function listAssignmentsForUser(db: Kysely<DB>, userId: string): Promise<AssignmentRow[]> {
  return db
    .selectFrom('assignments')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function listSurveyResponsesForUser(db: Kysely<DB>, userId: string): Promise<SurveyResponseRow[]> {
  return db
    .selectFrom('survey_responses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
