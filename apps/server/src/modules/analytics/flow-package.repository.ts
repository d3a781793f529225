import type { Kysely } from 'kysely';
import type { AssignmentRow, ChatMessageRow, DB } from '../../db/schema.js';
import { toIso } from '../../db/values.js';

// What a flow's data package reads (issue 30), a page of participants at a time, in the package's snapshot: their
// assignments, the flow's step records and what their chat counts from. A read model: it reads the journey's,
// the participants' and the chat's tables in statements of its own.

export interface FlowParticipantRows {
  assignment: AssignmentRow;
  steps: {
    step_id: string;
    step_type: string;
    data: string;
    done_at: Date | string | null;
    created_at: Date | string;
  }[];
  thread: { id: string; closed_reason: string | null; created_at: string } | null;
  messages: Pick<ChatMessageRow, 'role' | 'status' | 'content'>[];
}

/** The experiment's participants (test runs only when asked), in pages of `pageSize`, oldest first. */
export async function* flowParticipantPages(
  db: Kysely<DB>,
  experimentId: string,
  pageSize: number,
  includeTests: boolean,
): AsyncGenerator<FlowParticipantRows[]> {
  let after: { created: string; id: string } | null = null;
  for (;;) {
    let query = db.selectFrom('assignments').selectAll().where('experiment_id', '=', experimentId);
    if (!includeTests) query = query.where('is_test', '=', false);
    if (after) {
      const { created, id } = after;
      query = query.where((eb) =>
        eb.or([eb('created_at', '>', created), eb.and([eb('created_at', '=', created), eb('id', '>', id)])]),
      );
    }
    const assignments = await query.orderBy('created_at').orderBy('id').limit(pageSize).execute();
    if (assignments.length === 0) return;
    const ids = assignments.map((a) => a.id);
    const users = assignments.map((a) => a.user_id);
    const steps = await db
      .selectFrom('step_records')
      .select(['assignment_id', 'step_id', 'step_type', 'data', 'done_at', 'created_at'])
      .where('assignment_id', 'in', ids)
      .execute();
    const threads = await db
      .selectFrom('chat_threads')
      .select(['id', 'user_id', 'closed_reason', 'created_at'])
      .where('experiment_id', '=', experimentId)
      .where('user_id', 'in', users)
      .execute();
    const messages =
      threads.length === 0
        ? []
        : await db
            .selectFrom('chat_messages')
            .select(['thread_id', 'role', 'status', 'content', 'position'])
            .where(
              'thread_id',
              'in',
              threads.map((t) => t.id),
            )
            .orderBy('thread_id')
            .orderBy('position')
            .execute();
    yield assignments.map((assignment) => {
      const thread = threads.find((t) => t.user_id === assignment.user_id) ?? null;
      return {
        assignment,
        steps: steps.filter((s) => s.assignment_id === assignment.id),
        thread: thread && {
          id: thread.id,
          closed_reason: thread.closed_reason,
          created_at: toIso(thread.created_at),
        },
        messages: thread ? messages.filter((m) => m.thread_id === thread.id) : [],
      };
    });
    const last = assignments[assignments.length - 1];
    if (!last || assignments.length < pageSize) return;
    after = {
      created: String(last.created_at instanceof Date ? last.created_at.toISOString() : last.created_at),
      id: last.id,
    };
  }
}
