import { MAX_LOGGED_PASTES } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import { appendEvent, countParticipantEvents } from './journey-events.repository.js';
import { lockJourneyFacts } from './journey-facts.repository.js';
import { toFacts, toState } from './journey-records.js';
import { stepOutOfOrder } from './journey.service.js';
import { NO_PARTICIPATION } from './journey-errors.js';

// A paste (or drop) the chat box blocked is recorded as a journey event `paste_blocked` with the pasted
// length, never the text (docs/decisions/0028): the data package counts them per participant.

/**
 * Blocked pastes logged per participant and experiment; later ones are answered `recorded: false` and not
 * logged, so a script cannot grow the event log without bound (as with the refused writes, 0009).
 */
export { MAX_LOGGED_PASTES };

/**
 * Records one blocked paste of the caller, only while their chat box can be on screen: the chat started and
 * the step is the chat or, after the chat is complete, the post-survey (one may keep chatting). Otherwise 409
 * STEP_OUT_OF_ORDER, nothing written; 404 before they have joined.
 */
export async function recordBlockedPaste(
  deps: AppDeps,
  userId: string,
  input: { experimentId: string; length: number },
): Promise<{ recorded: boolean }> {
  const study = await deps.studies(input.experimentId);
  const outcome = await deps.database.db.transaction().execute(async (trx) => {
    const rows = await lockJourneyFacts(trx, userId, input.experimentId);
    if (!rows) throw notFound(NO_PARTICIPATION);
    const { assignment } = rows;
    const state = toState(toFacts(rows, study), study);
    const chatOpen = state.position.step === 'chat' || state.position.step === 'post_survey';
    if (!state.records.chatStarted || !chatOpen) throw stepOutOfOrder(state);
    const logged = await countParticipantEvents(trx, input.experimentId, userId, ['paste_blocked']);
    if (logged >= MAX_LOGGED_PASTES) return { recorded: false };
    await appendEvent(trx, {
      experimentId: input.experimentId,
      userId,
      assignmentId: assignment.id,
      type: 'paste_blocked',
      step: 'chat',
      data: { length: input.length },
      createdAt: deps.clock().toISOString(),
    });
    return { recorded: true };
  });
  return outcome;
}
