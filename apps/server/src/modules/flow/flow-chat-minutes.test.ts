import { describe, expect, it } from 'vitest';
import type { ChatArm, FlowDefinition, FlowView } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { send } from '../participants/journey.fixtures.js';
import { flowExperiment, flowParticipant, flowUrl, viewOf, walk } from './flow.testing.js';

// A flow chat arm's least and most minutes (issue 30), on the server's clock from the chat's start: rounds and
// points are not enough before the least minutes; the most minutes end the rule whatever the rounds.

function timedFlow(completion: ChatArm['completion']): FlowDefinition {
  return {
    format: 'flow',
    id: 'timed-chat',
    title: 'Timed chat',
    texts: { welcome: 'A test study', disclaimer: 'For testing only.' },
    conditions: [{ id: 'chat', label: 'Chat' }],
    pathways: [{ key: 'complete', label: 'whole study' }],
    steps: [
      { id: 'hello', type: 'page', title: 'Hello', blocks: [{ paragraphs: ['Hello.'] }], button: 'Next' },
      { id: 'assign', type: 'randomise', weights: { chat: 1 } },
      {
        id: 'talk',
        type: 'chat',
        title: 'Talk',
        intro: 'Talk with the assistant.',
        arms: {
          chat: {
            systemPrompt: 'Be helpful.',
            fallbackGreeting: 'Hello!',
            completion,
            scripted: { opening: 'Hello! What is on your mind?', replies: ['I see.'], closing: 'Thank you.' },
          },
        },
      },
      { id: 'done', type: 'end', pathway: 'complete', title: 'Thanks', blocks: [{ paragraphs: ['Done.'] }] },
    ],
  };
}

describe.each(TEST_DIALECTS)("a chat arm's minutes on %s", (dialect) => {
  const t = useTestApp(dialect);

  async function atChat(completion: ChatArm['completion']) {
    const experimentId = await flowExperiment(t(), await createAndLogin(t(), { isAdmin: true }), timedFlow(completion));
    const user = await flowParticipant(t(), experimentId);
    const view = await walk(t(), user, experimentId, { until: 'talk' });
    expect(view.step.id).toBe('talk');
    const { threadId } = expectJson<{ threadId: string }>(
      await send(t(), user, 'POST', '/api/chat/initiate', { experimentId }),
      200,
    );
    await send(t(), user, 'GET', `/api/chat/threads/${threadId}/initial-message`);
    const say = async (message: string) =>
      expect((await send(t(), user, 'POST', `/api/chat/threads/${threadId}/messages`, { message })).statusCode).toBe(
        200,
      );
    return { experimentId, user, say };
  }

  it('keeps the participant at the chat until its least minutes have passed, then moves them on', async () => {
    const { experimentId, user, say } = await atChat({ rounds: 1, points: 0, minMinutes: 2 });
    await say('What should I know about this?');
    const early = await viewOf(t(), user, experimentId);
    expect(early.step).toMatchObject({ id: 'talk', minSecondsLeft: 120, maxSecondsLeft: null });
    // The end step is refused while the chat is not done.
    const refused = await send(t(), user, 'POST', flowUrl(experimentId, 'done'), {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'STEP_OUT_OF_ORDER', flowStep: 'talk' });
    t().clock.advance(119_000);
    expect((await viewOf(t(), user, experimentId)).step).toMatchObject({ id: 'talk', minSecondsLeft: 1 });
    t().clock.advance(1_000);
    expect((await viewOf(t(), user, experimentId)).step.id).toBe('done');
  });

  it('needs the rounds as well: the least minutes alone are not enough', async () => {
    const { experimentId, user, say } = await atChat({ rounds: 2, points: 0, minMinutes: 1 });
    t().clock.advance(5 * 60_000);
    await say('A first question, after a long think.');
    expect((await viewOf(t(), user, experimentId)).step).toMatchObject({ id: 'talk', minSecondsLeft: 0 });
    await say('And a second one.');
    expect((await viewOf(t(), user, experimentId)).step.id).toBe('done');
  });

  it('ends the rule at its most minutes whatever the rounds, counted from the chat start', async () => {
    const { experimentId, user } = await atChat({ rounds: 10, points: 0, maxMinutes: 3 });
    expect((await viewOf(t(), user, experimentId)).step).toMatchObject({ id: 'talk', maxSecondsLeft: 180 });
    t().clock.advance(3 * 60_000 - 1);
    expect((await viewOf(t(), user, experimentId)).step.id).toBe('talk');
    t().clock.advance(1);
    const done: FlowView = await viewOf(t(), user, experimentId);
    expect(done.step).toMatchObject({ id: 'done', type: 'end', code: 'CODE-COMPLETE' });
  });
});
