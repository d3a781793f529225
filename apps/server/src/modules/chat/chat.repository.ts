import type { Kysely, Insertable } from 'kysely';
import type { ChatMessageRow, ChatMessagesTable, ChatThreadRow, DB } from '../../db/schema.js';

type Db = Kysely<DB>;

/** The condition assigned to this participant in this experiment, or null (no assignment or not yet assigned). */
export async function findAssignedCondition(db: Db, userId: string, experimentId: string): Promise<string | null> {
  const row = await db
    .selectFrom('assignments')
    .select('assigned_condition')
    .where('user_id', '=', userId)
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
  return row?.assigned_condition ?? null;
}

export async function findThreadFor(db: Db, userId: string, experimentId: string): Promise<ChatThreadRow | undefined> {
  return db
    .selectFrom('chat_threads')
    .selectAll()
    .where('user_id', '=', userId)
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
}

/** Inserts the thread unless this participant already has one for the experiment (a concurrent initiate). */
export async function insertThreadIfAbsent(
  db: Db,
  thread: { id: string; userId: string; experimentId: string; condition: string; now: string },
): Promise<void> {
  await db
    .insertInto('chat_threads')
    .values({
      id: thread.id,
      user_id: thread.userId,
      experiment_id: thread.experimentId,
      condition: thread.condition,
      title: null,
      reply_lock_id: null,
      reply_lock_until: null,
      created_at: thread.now,
      updated_at: thread.now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'experiment_id']).doNothing())
    .execute();
}

/** The thread if it belongs to this user; a foreign or unknown id reads as absent. */
export async function findOwnThread(db: Db, threadId: string, userId: string): Promise<ChatThreadRow | undefined> {
  return db
    .selectFrom('chat_threads')
    .selectAll()
    .where('id', '=', threadId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function listThreadMessages(db: Db, threadId: string): Promise<ChatMessageRow[]> {
  return db.selectFrom('chat_messages').selectAll().where('thread_id', '=', threadId).orderBy('position').execute();
}

export async function nextPosition(db: Db, threadId: string): Promise<number> {
  const row = await db
    .selectFrom('chat_messages')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('thread_id', '=', threadId)
    .executeTakeFirst();
  const max = row?.max;
  return max === null || max === undefined ? 0 : Number(max) + 1;
}

export async function insertMessage(db: Db, message: Insertable<ChatMessagesTable>): Promise<void> {
  await db.insertInto('chat_messages').values(message).execute();
}

/**
 * Takes the thread's reply lease if it is free or expired: one conditional UPDATE, so two processes
 * cannot both win. Returns whether this caller holds the lease.
 */
export async function tryTakeReplyLease(
  db: Db,
  threadId: string,
  leaseId: string,
  nowIso: string,
  untilIso: string,
): Promise<boolean> {
  const result = await db
    .updateTable('chat_threads')
    .set({ reply_lock_id: leaseId, reply_lock_until: untilIso })
    .where('id', '=', threadId)
    .where((eb) => eb.or([eb('reply_lock_id', 'is', null), eb('reply_lock_until', '<', nowIso)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends a lease this caller still holds. */
export async function renewReplyLease(db: Db, threadId: string, leaseId: string, untilIso: string): Promise<void> {
  await db
    .updateTable('chat_threads')
    .set({ reply_lock_until: untilIso })
    .where('id', '=', threadId)
    .where('reply_lock_id', '=', leaseId)
    .execute();
}

/** Frees the lease (only if still ours) and records the thread's activity time. */
export async function releaseReplyLease(db: Db, threadId: string, leaseId: string, nowIso: string): Promise<void> {
  await db
    .updateTable('chat_threads')
    .set({ reply_lock_id: null, reply_lock_until: null, updated_at: nowIso })
    .where('id', '=', threadId)
    .where('reply_lock_id', '=', leaseId)
    .execute();
}
