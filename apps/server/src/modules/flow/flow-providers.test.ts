import { describe, expect, it } from 'vitest';
import { modelComparisonTemplate, type AiTextStep, type FlowDefinition, type FlowStep } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { ProviderModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';
import { flowExperiment, flowParticipant, walk } from './flow.testing.js';

// A model comparison whose arms name two providers (issue 30): each arm's chat calls its own provider's model,
// stored with the model that answered; a deployment without a provider's key refuses to pin such a study.

/** The model comparison, plus an AI text step that names the second provider. */
const withAiText: FlowDefinition = {
  ...modelComparisonTemplate,
  steps: modelComparisonTemplate.steps.flatMap((step): FlowStep[] =>
    step.type === 'randomise'
      ? [
          step,
          {
            id: 'summary',
            type: 'ai_text',
            title: 'In one sentence',
            instructions: 'Read the sentence and confirm it.',
            prompt: 'Say in one sentence what a study about choices is.',
            scripted: 'A study about how people make choices.',
            allowCorrection: false,
            maxChars: 300,
            confirmLabel: 'Confirm',
            model: { provider: 'openai', model: 'gpt-5-mini' },
          } satisfies AiTextStep,
        ]
      : [step],
  ),
};

describe.each(TEST_DIALECTS)("a study's arms on two providers, on %s", (dialect) => {
  const anthropic = new ProviderModel('anthropic', 'claude-sonnet-5-5');
  const openai = new ProviderModel('openai', 'gpt-5-mini');
  const t = useTestApp(dialect, { deps: { llm: anthropic, providers: { openai } } });

  it("calls each arm's own provider and stores the model that answered", async () => {
    const experimentId = await flowExperiment(t(), await createAndLogin(t(), { isAdmin: true }), withAiText);
    // Permuted blocks of two: the first two participants take one arm each.
    const users = [await flowParticipant(t(), experimentId), await flowParticipant(t(), experimentId)];
    for (const user of users) expect((await walk(t(), user, experimentId)).completed).toBe(true);

    const threads = await t()
      .database.db.selectFrom('chat_threads')
      .innerJoin('chat_messages', 'chat_messages.thread_id', 'chat_threads.id')
      .where('chat_threads.experiment_id', '=', experimentId)
      .where('chat_messages.role', '=', 'assistant')
      .select(['chat_threads.condition', 'chat_messages.model_used'])
      .execute();
    const modelsByArm = (arm: string) => new Set(threads.filter((r) => r.condition === arm).map((r) => r.model_used));
    expect(modelsByArm('model_a')).toEqual(new Set(['claude-sonnet-4-5']));
    expect(modelsByArm('model_b')).toEqual(new Set(['gpt-5-mini']));
    // The chats went to their providers; the AI text step, naming OpenAI, went there for both participants.
    expect(anthropic.calls.map((c) => c.model)).toEqual(expect.arrayContaining(['claude-sonnet-4-5']));
    expect(anthropic.calls.every((c) => c.model === 'claude-sonnet-4-5')).toBe(true);
    expect(openai.calls.every((c) => c.model === 'gpt-5-mini')).toBe(true);
    expect(openai.calls.filter((c) => c.thinking !== false).length).toBeGreaterThan(0);
    expect(openai.calls.filter((c) => c.thinking === false)).toHaveLength(2);
  });
});

describe.each(TEST_DIALECTS)('a deployment with one provider, on %s', (dialect) => {
  const t = useTestApp(dialect, { deps: { llm: new ProviderModel('anthropic', 'claude-sonnet-5-5') } });

  it('refuses to pin a study whose arm names a provider it has no key for, naming the arm', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin, false);
    const pinned = () =>
      t()
        .database.db.selectFrom('experiments')
        .where('id', '=', experiment.id)
        .select('study_version_id')
        .executeTakeFirstOrThrow();
    const before = await pinned();
    const version = expectJson<{ id: string }>(
      await send(t(), admin, 'POST', '/api/admin/study-versions', {
        label: 'Two providers',
        definition: modelComparisonTemplate,
      }),
      201,
    );
    const pin = await send(t(), admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, {
      study_version_id: version.id,
    });
    const body = expectJson<{ code: string; issues: { path: string; message: string }[] }>(pin, 400);
    expect(body.code).toBe('STUDY_INVALID');
    const chatIndex = modelComparisonTemplate.steps.findIndex((s) => s.type === 'chat');
    expect(body.issues).toEqual([
      {
        path: `steps.${chatIndex}.arms.model_b.model.provider`,
        message: expect.stringContaining('OPENAI_API_KEY') as string,
      },
    ]);
    // The experiment still runs the version it ran.
    expect(await pinned()).toEqual(before);
  });
});
