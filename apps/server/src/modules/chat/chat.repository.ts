import { sql, type Kysely } from 'kysely';
import type { ChatLimitOverrides } from '@studychat/contracts';
import { jsonArray, jsonObject, parsed } from '../../db/dialect.js';
import { hotRead } from '../../db/hot-read.js';
import type { ChatMessageRow, ChatThreadRow, DB } from '../../db/schema.js';
import { toNumber } from '../../db/values.js';
import { CHAT_LIMIT_COLUMN, toChatLimitOverrides } from '../experiments/chat-limit-columns.js';

type Db = Kysely<DB>;

/** The condition assigned to this participant in this experiment, or null (no assignment or not yet assigned). */
export async function findAssignedCondition(db: Db, userId: string, experimentId: string): Promise<string | null> {
  return (await findParticipation(db, userId, experimentId))?.assigned_condition ?? null;
}

/** What the chat needs of the participant's assignment: their condition and whether they have completed. */
export function findParticipation(
  db: Db,
  userId: string,
  experimentId: string,
): Promise<{ assigned_condition: string | null; completed_at: Date | string | null } | undefined> {
  return db
    .selectFrom('assignments')
    .select(['assigned_condition', 'completed_at'])
    .where('user_id', '=', userId)
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
}

type NewThread = { id: string; userId: string; experimentId: string; condition: string; title: string; now: string };

/** Inserts the thread unless this participant already has one for the experiment; whether it was inserted. */
export async function insertThreadIfAbsent(db: Db, thread: NewThread): Promise<boolean> {
  const result = await db
    .insertInto('chat_threads')
    .values({
      id: thread.id,
      user_id: thread.userId,
      experiment_id: thread.experimentId,
      condition: thread.condition,
      title: thread.title,
      reply_lock_id: null,
      reply_lock_until: null,
      created_at: thread.now,
      updated_at: thread.now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'experiment_id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** The thread's messages in order. */
export function listThreadMessages(db: Db, threadId: string): Promise<ChatMessageRow[]> {
  return db.selectFrom('chat_messages').selectAll().where('thread_id', '=', threadId).orderBy('position').execute();
}

/** A new message's columns (its study version is stamped by the insert). */
export type NewChatMessage = Pick<ChatMessageRow, 'id' | 'thread_id' | 'position' | 'role' | 'content' | 'status'> & {
  is_initial: boolean;
  created_at: string;
};

/** Inserts a message stamped with the study version its participant runs under (their assignment's). */
export async function insertMessage(db: Db, message: NewChatMessage): Promise<void> {
  await insertMessages(db, [message]);
}

/** Inserts messages in one statement, each stamped as insertMessage stamps it. */
export async function insertMessages(db: Db, messages: readonly NewChatMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await db
    .insertInto('chat_messages')
    .values((eb) =>
      messages.map((message) => ({
        ...message,
        study_version_id: eb
          .selectFrom('chat_threads')
          .innerJoin('assignments', (join) =>
            join
              .onRef('assignments.user_id', '=', 'chat_threads.user_id')
              .onRef('assignments.experiment_id', '=', 'chat_threads.experiment_id'),
          )
          .select('assignments.study_version_id')
          .where('chat_threads.id', '=', message.thread_id),
      })),
    )
    .execute();
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

/**
 * Writes the text streamed so far into several replies still being written, in one statement (never over a
 * finished one): the process's partial saves of one tick (partial-saver.ts).
 */
export async function updateStreamingContents(
  db: Db,
  saves: readonly { id: string; content: string }[],
): Promise<void> {
  if (saves.length === 0) return;
  const cases = sql.join(
    saves.map((s) => sql`when ${s.id} then ${s.content}`),
    sql` `,
  );
  await db
    .updateTable('chat_messages')
    .set({ content: sql<string>`case id ${cases} else content end` })
    .where(
      'id',
      'in',
      saves.map((s) => s.id),
    )
    .where('status', '=', 'streaming')
    .execute();
}

/**
 * Replies still marked as streaming in a thread whose lease has lapsed were being written by a process
 * that died: they become `interrupted`, keeping the text saved so far. Returns how many there were.
 */
export async function markStreamingInterrupted(db: Db, threadId: string, reason: string): Promise<number> {
  const result = await db
    .updateTable('chat_messages')
    .set({ status: 'interrupted', error_message: reason })
    .where('thread_id', '=', threadId)
    .where('status', '=', 'streaming')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Records why the chat ended, once; true when this call recorded it. */
export async function closeThread(db: Db, threadId: string, reason: string, nowIso: string): Promise<boolean> {
  const result = await db
    .updateTable('chat_threads')
    .set({ closed_reason: reason, closed_at: nowIso })
    .where('id', '=', threadId)
    .where('closed_reason', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setThreadTitle(db: Db, threadId: string, title: string): Promise<void> {
  await db.updateTable('chat_threads').set({ title }).where('id', '=', threadId).execute();
}

/** What the experiment's chats have cost so far, in USD. */
export async function experimentSpentUsd(db: Db, experimentId: string): Promise<number> {
  const row = await db
    .selectFrom('chat_threads')
    .select((eb) => eb.fn.sum<number | string | null>('cost_usd').as('spent'))
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
  return row?.spent === null || row?.spent === undefined ? 0 : toNumber(row.spent);
}

/** What each experiment's chats have cost so far, in USD, by experiment id. */
export async function spentByExperiment(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('chat_threads')
    .select((eb) => ['experiment_id', eb.fn.sum<number | string | null>('cost_usd').as('spent')])
    .groupBy('experiment_id')
    .execute();
  return new Map(rows.map((r) => [r.experiment_id, r.spent === null ? 0 : toNumber(r.spent)]));
}

const MESSAGE_COLUMNS = [
  'id',
  'thread_id',
  'position',
  'role',
  'content',
  'is_initial',
  'status',
  'error_message',
  'model_used',
  'input_tokens',
  'output_tokens',
  'cost_usd',
  'usage_estimated',
  'first_token_ms',
  'total_ms',
  'stop_reason',
  'thinking_log',
  'study_version_id',
  'created_at',
] as const satisfies readonly (keyof ChatMessageRow)[];

/** A thread with what the chat's rules read about it, from one statement (readThread). */
export interface ThreadRead {
  thread: ChatThreadRow;
  /** The participant's completion time (null: not completed, or no assignment). */
  completedAt: Date | string | null;
  /** The experiment's chat limit columns; undefined when the experiment is gone. */
  overrides: ChatLimitOverrides | undefined;
  /** The thread's messages in order. */
  messages: ChatMessageRow[];
}

/** The thread with its participant's completion, the experiment's chat limits and the messages. */
function threadStatement(db: Db, p: { userId: string; threadId?: string; experimentId?: string }) {
  const message = jsonArray(db, jsonObject(db, 'm', MESSAGE_COLUMNS));
  const query = db
    .selectFrom('chat_threads as t')
    .leftJoin('assignments as a', (join) =>
      join.onRef('a.user_id', '=', 't.user_id').onRef('a.experiment_id', '=', 't.experiment_id'),
    )
    .leftJoin('experiments as e', 'e.id', 't.experiment_id')
    .selectAll('t')
    .select(['a.completed_at as p_completed_at', 'e.id as e_id'])
    .select(Object.values(CHAT_LIMIT_COLUMN).map((c) => `e.${c}` as const))
    .select(sql<unknown>`(select ${message} from chat_messages m where m.thread_id = t.id)`.as('f_messages'))
    .where('t.user_id', '=', p.userId);
  if (p.threadId !== undefined) return query.where('t.id', '=', p.threadId).compile();
  return query.where('t.experiment_id', '=', p.experimentId ?? '').compile();
}

const threadById = hotRead('chatThreadById', ['userId', 'threadId'], threadStatement);
const threadOfExperiment = hotRead('chatThreadOfExperiment', ['userId', 'experimentId'], threadStatement);

/**
 * The thread (by id and owner, or by participant and experiment), the participant's completion, the
 * experiment's chat limits and the thread's messages, in one statement; undefined when there is no such thread.
 */
export async function readThread(
  db: Db,
  find: { threadId: string; userId: string } | { userId: string; experimentId: string },
): Promise<ThreadRead | undefined> {
  const rows = 'threadId' in find ? await threadById(db, find) : await threadOfExperiment(db, find);
  const row = rows[0];
  if (!row) return undefined;
  const { p_completed_at, e_id, f_messages, ...rest } = row;
  const thread: ChatThreadRow = {
    id: rest.id,
    user_id: rest.user_id,
    experiment_id: rest.experiment_id,
    condition: rest.condition,
    title: rest.title,
    reply_lock_id: rest.reply_lock_id,
    reply_lock_until: rest.reply_lock_until,
    tokens_used: rest.tokens_used,
    cost_usd: rest.cost_usd,
    reserved_usd: rest.reserved_usd,
    cache_write_tokens: rest.cache_write_tokens,
    cache_read_tokens: rest.cache_read_tokens,
    closed_reason: rest.closed_reason,
    closed_at: rest.closed_at,
    created_at: rest.created_at,
    updated_at: rest.updated_at,
  };
  return {
    thread,
    completedAt: p_completed_at ?? null,
    overrides: e_id === null ? undefined : toChatLimitOverrides(rest),
    messages: parsed<ChatMessageRow[]>(f_messages).sort((a, b) => a.position - b.position),
  };
}

/** Tokens and cost of the stored assistant messages of these participants' threads in an experiment, per user. */
export async function usageByUser(
  db: Db,
  experimentId: string,
  userIds: readonly string[],
): Promise<Map<string, { inputTokens: number; outputTokens: number; costUsd: number }>> {
  const usage = new Map<string, { inputTokens: number; outputTokens: number; costUsd: number }>();
  if (userIds.length === 0) return usage;
  const rows = await db
    .selectFrom('chat_messages as m')
    .innerJoin('chat_threads as t', 't.id', 'm.thread_id')
    .where('t.experiment_id', '=', experimentId)
    .where('t.user_id', 'in', [...userIds])
    .where('m.role', '=', 'assistant')
    .select((eb) => [
      't.user_id as user_id',
      eb.fn.coalesce(eb.fn.sum<number | string>('m.input_tokens'), eb.lit(0)).as('input_tokens'),
      eb.fn.coalesce(eb.fn.sum<number | string>('m.output_tokens'), eb.lit(0)).as('output_tokens'),
      eb.fn.coalesce(eb.fn.sum<number | string>('m.cost_usd'), eb.lit(0)).as('cost_usd'),
    ])
    .groupBy('t.user_id')
    .execute();
  for (const row of rows) {
    usage.set(row.user_id, {
      inputTokens: toNumber(row.input_tokens),
      outputTokens: toNumber(row.output_tokens),
      costUsd: toNumber(row.cost_usd),
    });
  }
  return usage;
}
