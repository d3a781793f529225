import type { Kysely } from 'kysely';
import { forUpdate } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';

/**
 * The participants (assignments) of an experiment carrying a Prolific id, locked until the transaction ends
 * (db/dialect.ts `forUpdate`), as the journey gate locks one: the withdrawal waits for a write of theirs under way, and
 * the writes that come after it wait for it, then find no assignment (docs/decisions/0074-hardening.md).
 */
export function lockAssignmentsByPid(
  trx: Kysely<DB>,
  experimentId: string,
  prolificPid: string,
): Promise<{ id: string; user_id: string }[]> {
  const assignments = trx
    .selectFrom('assignments')
    .where('experiment_id', '=', experimentId)
    .where('prolific_pid', '=', prolificPid)
    .select(['id', 'user_id'])
    .orderBy('id');
  return forUpdate(trx, assignments).execute();
}

const count = (result: { numDeletedRows: bigint }[]) => result.reduce((n, r) => n + Number(r.numDeletedRows), 0);

/**
 * Deletes every row of these participants in this experiment: chat messages and threads, survey
 * responses, section records, journey events, the Prolific id claim and the assignments. The randomisation
 * slot stays claimed (unlinked), so the allocation sequence of the others is unchanged.
 */
export async function deleteParticipantData(
  trx: Kysely<DB>,
  experimentId: string,
  assignments: readonly { id: string; user_id: string }[],
): Promise<{ messages: number; surveyResponses: number; sectionRecords: number; events: number }> {
  const userIds = assignments.map((a) => a.user_id);
  const assignmentIds = assignments.map((a) => a.id);
  const threads = trx
    .selectFrom('chat_threads')
    .where('experiment_id', '=', experimentId)
    .where('user_id', 'in', userIds)
    .select('id');
  const messages = count(await trx.deleteFrom('chat_messages').where('thread_id', 'in', threads).execute());
  await trx
    .deleteFrom('chat_threads')
    .where('experiment_id', '=', experimentId)
    .where('user_id', 'in', userIds)
    .execute();
  const surveyResponses = count(
    await trx
      .deleteFrom('survey_responses')
      .where('experiment_id', '=', experimentId)
      .where('user_id', 'in', userIds)
      .execute(),
  );
  const sectionRecords =
    count(
      await trx
        .deleteFrom('section_views')
        .where('experiment_id', '=', experimentId)
        .where('user_id', 'in', userIds)
        .execute(),
    ) +
    count(
      await trx
        .deleteFrom('section_exposures')
        .where('experiment_id', '=', experimentId)
        .where('user_id', 'in', userIds)
        .execute(),
    );
  const events = count(
    await trx
      .deleteFrom('journey_events')
      .where('experiment_id', '=', experimentId)
      .where('user_id', 'in', userIds)
      .execute(),
  );
  await trx.deleteFrom('experiment_prolific_ids').where('assignment_id', 'in', assignmentIds).execute();
  await trx
    .updateTable('allocation_slots')
    .set({ assignment_id: null })
    .where('assignment_id', 'in', assignmentIds)
    .execute();
  await trx.deleteFrom('assignments').where('id', 'in', assignmentIds).execute();
  return { messages, surveyResponses, sectionRecords, events };
}
