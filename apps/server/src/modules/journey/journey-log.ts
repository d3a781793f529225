import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { appendEvent, appendParticipantEvent } from './journey-events.repository.js';
import type { StepContext } from './journey.service.js';

// What the journey logs outside its gate's own step events: a participant joining, the chat step ending, and a
// refused change of an answer. Each is written in the transaction of the write it records.

/** Logs that a participant joined an experiment, in the transaction that created their assignment. */
export async function logJoined(
  trx: Transaction<DB>,
  input: { userId: string; experimentId: string; assignmentId: string; now: Date },
): Promise<void> {
  await appendEvent(trx, {
    experimentId: input.experimentId,
    userId: input.userId,
    assignmentId: input.assignmentId,
    type: 'joined',
    step: 'consent',
    createdAt: input.now.toISOString(),
  });
}

/**
 * Logs that the chat step is done (complete by the server's count, or ended by a limit), for the participant's
 * assignment, in the transaction that made it so. The chat module logs it once per thread.
 */
export async function logChatComplete(
  trx: Kysely<DB>,
  input: { userId: string; experimentId: string; data: Record<string, unknown>; now: Date },
): Promise<void> {
  await appendParticipantEvent(trx, {
    experimentId: input.experimentId,
    userId: input.userId,
    type: 'chat_complete',
    step: 'chat',
    data: input.data,
    createdAt: input.now.toISOString(),
  });
}

/**
 * Logs a repeat survey submission whose answers differ from the stored ones (the first answers stay): the
 * questions that differ, with the first and the attempted value of each.
 */
export async function logAnswerChangeRefused(
  ctx: StepContext,
  input: { surveyType: string; first: Record<string, unknown>; attempted: Record<string, unknown> },
): Promise<void> {
  const { assignment } = ctx.state.facts;
  const changed = [...new Set([...Object.keys(input.first), ...Object.keys(input.attempted)])].filter(
    (key) => JSON.stringify(input.first[key]) !== JSON.stringify(input.attempted[key]),
  );
  if (changed.length === 0) return;
  await appendEvent(ctx.trx, {
    experimentId: assignment.experiment_id,
    userId: assignment.user_id,
    assignmentId: assignment.id,
    type: 'answer_change_refused',
    step: ctx.state.position.step,
    data: {
      surveyType: input.surveyType,
      first: Object.fromEntries(changed.map((key) => [key, input.first[key] ?? null])),
      attempted: Object.fromEntries(changed.map((key) => [key, input.attempted[key] ?? null])),
    },
    createdAt: ctx.now.toISOString(),
  });
}

/**
 * For the writes that append a participant's events outside the gate (the chat's completing reply, a limit
 * closing it): hold the participant against a withdrawal, and the event's insert to run with their own writes.
 */
export { holdParticipant, participantEventInsert, type ParticipantEvent } from './journey-events.repository.js';
