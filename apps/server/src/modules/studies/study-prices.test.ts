import { describe, expect, it } from 'vitest';
import {
  modelComparisonTemplate,
  studyDefinition,
  type StudyDefinition,
  type StudyVersion,
} from '@studychat/contracts';
import { createAndLogin, expectJson, testConfig, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';

type Refusal = { code: string; issues: { path: string; message: string }[] };

/** The built-in study with the mmr condition's model set (and its price, when given). */
function withModel(model: string, price?: { inputPerMTok: number; outputPerMTok: number }): StudyDefinition {
  const study = structuredClone(studyDefinition);
  const mmr = study.chat.conditions.mmr;
  if (!mmr) throw new Error('the built-in study has an mmr condition');
  mmr.settings = { model, ...(price ? { price } : {}) };
  return study;
}

const MODEL_PATH = 'chat.conditions.mmr.settings.model';

// A condition's model with no known price is refused when a version is saved or pinned (docs/decisions/0073).
describe.each(TEST_DIALECTS)('study versions and model prices on %s', (dialect) => {
  const t = useTestApp(dialect, {
    config: { llm: { ...testConfig().llm, prices: { 'lab-llama': { inputPerMTok: 0, outputPerMTok: 0 } } } },
  });

  it('refuses saving a condition whose model has no known price, at its model setting, until it is given one', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const unpriced = withModel('openai/gpt-4o');
    const checked = expectJson<{ issues: Refusal['issues'] }>(
      await send(t(), admin, 'POST', '/api/admin/study-versions/check', { definition: unpriced }),
      200,
    );
    expect(checked.issues).toHaveLength(1);
    expect(checked.issues[0]?.path).toBe(MODEL_PATH);
    expect(checked.issues[0]?.message).toMatch(/no price is known for the model "openai\/gpt-4o"/);
    const refused = expectJson<Refusal>(
      await send(t(), admin, 'POST', '/api/admin/study-versions', { label: 'Unpriced', definition: unpriced }),
      400,
    );
    expect(refused).toMatchObject({ code: 'STUDY_INVALID', issues: checked.issues });

    // Priced by the condition, by the deployment's LLM_PRICES, or by the table's family (a dated snapshot).
    for (const definition of [
      withModel('openai/gpt-4o', { inputPerMTok: 2.5, outputPerMTok: 10 }),
      withModel('lab-llama'),
      withModel('gpt-4o-2024-08-06'),
    ]) {
      expectJson<StudyVersion>(
        await send(t(), admin, 'POST', '/api/admin/study-versions', { label: 'Priced', definition }),
        201,
      );
    }

    // An edit to an unpriced model is refused the same way.
    const version = expectJson<StudyVersion>(
      await send(t(), admin, 'POST', '/api/admin/study-versions', { label: 'Edit me', definition: studyDefinition }),
      201,
    );
    const edit = await send(t(), admin, 'PUT', `/api/admin/study-versions/${version.id}`, { definition: unpriced });
    expect(expectJson<Refusal>(edit, 400).issues[0]?.path).toBe(MODEL_PATH);
  });

  it('refuses pinning a version whose model has no known price (saved before the rule, or under other prices)', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin);
    const id = t().deps.newId();
    const now = t().clock.fn().toISOString();
    await t()
      .database.db.insertInto('study_versions')
      .values({
        id,
        label: 'Saved before prices were checked',
        definition: JSON.stringify(withModel('llama3.1:8b')),
        parent_id: null,
        is_default: false,
        created_by: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const pin = await send(t(), admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, {
      study_version_id: id,
    });
    const refused = expectJson<Refusal>(pin, 400);
    expect(refused.code).toBe('STUDY_INVALID');
    expect(refused.issues[0]?.message).toMatch(/"llama3\.1:8b"/);
    // Cloning it is allowed (the copy is where the researcher gives the price), and the priced copy pins.
    const clone = expectJson<StudyVersion>(
      await send(t(), admin, 'POST', `/api/admin/study-versions/${id}/clone`, {}),
      201,
    );
    const priced = withModel('llama3.1:8b', { inputPerMTok: 0.1, outputPerMTok: 0.2 });
    expectJson(await send(t(), admin, 'PUT', `/api/admin/study-versions/${clone.id}`, { definition: priced }), 200);
    expectJson(
      await send(t(), admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, { study_version_id: clone.id }),
      200,
    );
  });

  it('refuses a fallback model with no known price at its setting, in either kind of study (the own price is the model’s)', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const check = async (definition: unknown) =>
      expectJson<{ issues: Refusal['issues'] }>(
        await send(t(), admin, 'POST', '/api/admin/study-versions/check', { definition }),
        200,
      ).issues;
    const study = withModel('lab-model', { inputPerMTok: 1, outputPerMTok: 2 });
    const mmr = study.chat.conditions.mmr;
    if (!mmr?.settings) throw new Error('settings set above');
    mmr.settings.fallbackModel = 'lab-model-small';
    expect(await check(study)).toEqual([
      {
        path: 'chat.conditions.mmr.settings.fallbackModel',
        message: expect.stringMatching(/no price is known for the fallback model "lab-model-small"/) as string,
      },
    ]);
    mmr.settings.fallbackModel = 'lab-llama';
    expect(await check(study)).toEqual([]);

    const flow = structuredClone(modelComparisonTemplate);
    const index = flow.steps.findIndex((s) => s.type === 'chat');
    const step = flow.steps[index];
    if (step?.type !== 'chat' || !step.arms.model_a) throw new Error('the template has a chat step');
    step.arms.model_a.model = { ...step.arms.model_a.model, fallbackModel: 'claude-nonesuch' };
    expect((await check(flow)).map((i) => i.path)).toEqual([`steps.${index}.arms.model_a.model.fallbackModel`]);
  });
});
