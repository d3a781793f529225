import {
  modelComparisonTemplate,
  studyDefinition,
  type CostEstimateReply,
  type FlowDefinition,
  type StudyDefinition,
} from '@studychat/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { DEFAULT_PRICES } from '../../llm/pricing.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';
import { flowArms } from './cost-estimate-arms.js';
import { estimateCost } from './cost-estimate.js';

// The cost estimate before launch through its route, on both databases: the pinned study's arms in either shape,
// the deployment's model where an arm sets none, and a clear 400 or 404 for a bad sample or an unknown experiment.

async function pinned(t: TestApp, admin: TestUser, definition: StudyDefinition | FlowDefinition): Promise<string> {
  const experiment = await createExperiment(t, admin, false);
  const version = expectJson<{ id: string }>(
    await send(t, admin, 'POST', '/api/admin/study-versions', { label: 'Costed', definition }),
    201,
  );
  const pin = { study_version_id: version.id };
  expectJson(await send(t, admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, pin), 200);
  return experiment.id;
}

describe.each(TEST_DIALECTS)('cost estimate route on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  beforeEach(async () => {
    admin ??= await createAndLogin(t(), { isAdmin: true });
  });
  const estimate = (id: string, query: string, as: TestUser = admin) =>
    send(t(), as, 'GET', `/api/experiments/${id}/cost-estimate${query}`);

  it('estimates a study in the built-in shape: the condition’s own model, the deployment’s (scripted, free) else', async () => {
    const study = structuredClone(studyDefinition) as StudyDefinition;
    study.chat.conditions.mmr = { ...studyDefinition.chat.conditions.mmr, settings: { model: 'claude-sonnet-4-5' } };
    const id = await pinned(t(), admin, study);
    const reply = expectJson<CostEstimateReply>(await estimate(id, '?sample=200'), 200);
    expect(reply.sample).toBe(200);
    const [mmr, control] = reply.arms;
    expect(mmr).toMatchObject({ condition: 'mmr', participants: 100, models: ['claude-sonnet-4-5'], calls: 4 });
    expect(mmr?.perParticipant.uncached).toBeGreaterThan(0);
    expect(mmr?.perParticipant.cached).toBeLessThan(mmr?.perParticipant.uncached ?? 0);
    expect(control).toMatchObject({ condition: 'control', models: ['scripted-offline'] });
    expect(control?.perParticipant).toEqual({ uncached: 0, cached: 0 });
    expect(reply.total.uncached).toBeCloseTo((mmr?.perParticipant.uncached ?? 0) * 100, 9);
    expect(reply.assumptions.length).toBeGreaterThan(3);
  });

  it('estimates a flow from its chat arms, as the pure rule does with the deployment’s limits', async () => {
    const id = await pinned(t(), admin, modelComparisonTemplate);
    const reply = expectJson<CostEstimateReply>(await estimate(id, '?sample=10'), 200);
    const expected = estimateCost(
      flowArms(modelComparisonTemplate),
      { model: 'scripted-offline', replyTokenLimit: 1024, thinkingBudget: 1024 },
      DEFAULT_PRICES,
      10,
    );
    expect(reply).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(reply.arms.map((a) => a.models[0])).toEqual(['claude-sonnet-4-5', 'gpt-5-mini']);
    expect(reply.total.cached).not.toBeNull();
  });

  it('refuses a missing, zero, negative, fractional or non-numeric sample with 400, and an unknown experiment with 404', async () => {
    const id = await pinned(t(), admin, modelComparisonTemplate);
    for (const query of ['', '?sample=0', '?sample=-5', '?sample=2.5', '?sample=lots', '?sample=10000001']) {
      const res = await estimate(id, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ code: string }>().code, query).toBe('VALIDATION_FAILED');
    }
    const missing = await estimate('00000000-0000-4000-8000-0000000000ff', '?sample=10');
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ code: string }>().code).toBe('NOT_FOUND');
  });
});
