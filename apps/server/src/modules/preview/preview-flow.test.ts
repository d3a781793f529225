import { describe, expect, it } from 'vitest';
import {
  threeArmTemplate,
  type FlowProgressReply,
  type FlowView,
  type PreviewLink,
  type RedeemPreviewReply,
} from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { SwitchableModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { send } from '../participants/journey.fixtures.js';
import { act, flowExperiment, viewOf } from '../flow/flow.testing.js';

// "Preview as participant" for a study written as a flow (issue 31): the admin picks any of the flow's conditions;
// the test participant walks the flow in that arm (the randomise step keeps it) to its code, as a test run.

describe.each(TEST_DIALECTS)('preview of a flow on %s', (dialect) => {
  const model = new SwitchableModel();
  const t = useTestApp(dialect, { deps: { llm: model } });

  async function previewIn(admin: TestUser, experimentId: string, condition: string): Promise<TestUser> {
    const link = expectJson<PreviewLink>(
      await send(t(), admin, 'POST', `/api/experiments/${experimentId}/previews`, { condition }),
      201,
    );
    expect(link.condition).toBe(condition);
    const token = link.path.replace('/preview#', '');
    const reply = expectJson<RedeemPreviewReply>(
      await send(t(), undefined, 'POST', '/api/preview/redeem', { token }),
      200,
    );
    expect(reply.experiment_id).toBe(experimentId);
    return {
      id: reply.user.id,
      email: reply.user.email,
      password: '',
      token: reply.token,
      headers: { authorization: `Bearer ${reply.token}` },
    };
  }

  it('walks each arm of a flow as a test run, in the chosen condition, to its code', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experimentId = await flowExperiment(t(), admin, threeArmTemplate);
    for (const condition of threeArmTemplate.conditions.map((c) => c.id)) {
      const user = await previewIn(admin, experimentId, condition);
      let view = await viewOf(t(), user, experimentId);
      const seen: string[] = [];
      while (!view.completed) {
        seen.push(view.step.id);
        view = expectJson<FlowView>(await act(t(), user, experimentId, view), 200);
      }
      expect(view.condition).toBe(condition);
      expect(view.step).toMatchObject({ type: 'end', pathway: 'complete', code: 'CODE-COMPLETE' });
      expect(seen.includes('conversation')).toBe(condition === 'chatbot');
      const row = await t()
        .database.db.selectFrom('assignments')
        .select(['assigned_condition', 'is_test'])
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.assigned_condition).toBe(condition);
      expect(Boolean(row.is_test)).toBe(true);
    }
    // Test runs stay out of the flow's monitor.
    const progress = await send(t(), admin, 'GET', `/api/experiments/${experimentId}/flow-progress`);
    expect(expectJson<FlowProgressReply>(progress, 200).total).toBe(0);
  });

  it("refuses a condition the flow does not have, naming the flow's conditions", async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experimentId = await flowExperiment(t(), admin, threeArmTemplate);
    const reply = await send(t(), admin, 'POST', `/api/experiments/${experimentId}/previews`, { condition: 'mmr' });
    expect(expectJson(reply, 400)).toEqual({
      error: "condition: must be one of the study's conditions (chatbot, text, none)",
      code: 'VALIDATION_FAILED',
    });
  });
});
