import { describe, expect, it } from 'vitest';
import type { MonitorReply, ParticipantStudy, StudyVersion } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { SwitchableModel } from '../../../test/chat.js';
import { csvObjects } from '../analytics/parse-csv.testing.js';
import { assignmentOf, createExperiment, participantAt, send } from '../participants/journey.fixtures.js';
import { threeConditionStudy } from './second-study.fixtures.js';

// A study of three conditions with ids of its own (docs/decisions/0061): randomisation, sections, chat
// prompts, the monitor and the exports all follow the version's conditions, not the MMR study's two.

async function threeConditionExperiment(t: TestApp, admin: TestUser): Promise<string> {
  const version = expectJson<StudyVersion>(
    await send(t, admin, 'POST', '/api/admin/study-versions', {
      label: 'Three arms',
      definition: threeConditionStudy(),
    }),
    201,
  );
  const experiment = await createExperiment(t, admin);
  expectJson(
    await send(t, admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, { study_version_id: version.id }),
    200,
  );
  return experiment.id;
}

describe.each(TEST_DIALECTS)('a three-condition study on %s', (dialect) => {
  const model = new SwitchableModel();
  const t = useTestApp(dialect, { deps: { llm: model } });

  it('assigns 30 participants of one stratum 10/10/10, each block of six holding every condition twice', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experimentId = await threeConditionExperiment(t(), admin);
    const counts: Record<string, number> = {};
    for (let i = 0; i < 30; i++) {
      const user = await participantAt(t(), experimentId, 'assigned', { baseline: 3 });
      const { assigned_condition: condition, stratum } = await assignmentOf(t(), user, experimentId);
      expect(stratum).toBe('3-4');
      counts[String(condition)] = (counts[String(condition)] ?? 0) + 1;
    }
    expect(counts).toEqual({ sleep: 10, teeth: 10, screens: 10 });
    const slots = await t()
      .database.db.selectFrom('allocation_slots')
      .select(['block_index', 'condition', 'assignment_id'])
      .where('experiment_id', '=', experimentId)
      .execute();
    expect(slots).toHaveLength(30);
    for (let block = 0; block < 5; block++) {
      const inBlock = slots.filter((s) => Number(s.block_index) === block).map((s) => s.condition);
      expect(inBlock.sort()).toEqual(['screens', 'screens', 'sleep', 'sleep', 'teeth', 'teeth']);
    }
    expect(slots.every((s) => s.assignment_id !== null)).toBe(true);
  });

  it("runs each condition's sections and prompt, and the monitor and exports count the three", async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experimentId = await threeConditionExperiment(t(), admin);
    const study = threeConditionStudy();

    // The participant view carries the declared conditions (ids and labels), never a prompt.
    const first = await participantAt(t(), experimentId, 'joined');
    const viewReply = await send(t(), first, 'GET', `/api/participants/study/${experimentId}`);
    const view = expectJson<ParticipantStudy>(viewReply, 200);
    expect(view.conditionList.map((c) => c.id)).toEqual(['sleep', 'teeth', 'screens']);
    expect(Object.keys(view.conditions)).toEqual(['sleep', 'teeth', 'screens']);
    expect(viewReply.body).not.toContain('SECRET');

    // A complete block of six: every condition twice.
    const seen = new Map<string, number>();
    for (let i = 0; i < 6; i++) {
      model.reset();
      const user = await participantAt(t(), experimentId, 'chatted');
      const { assigned_condition: condition } = await assignmentOf(t(), user, experimentId);
      if (!condition) throw new Error('not assigned');
      seen.set(condition, (seen.get(condition) ?? 0) + 1);
      const sections = await t()
        .database.db.selectFrom('section_views')
        .innerJoin('assignments', 'assignments.id', 'section_views.assignment_id')
        .select('section_views.section_id')
        .where('assignments.user_id', '=', user.id)
        .orderBy('section_views.section_index')
        .execute();
      expect(sections.map((s) => s.section_id)).toEqual(study.conditions[condition]?.sections.map((s) => s.id));
      expect(model.calls.length).toBeGreaterThan(1);
      for (const call of model.calls) {
        expect(call.condition).toBe(condition);
        expect(call.system).toBe(study.chat.conditions[condition]?.systemPrompt);
      }
    }
    expect(Object.fromEntries(seen)).toEqual({ sleep: 2, teeth: 2, screens: 2 });

    const monitor = expectJson<MonitorReply>(
      await send(t(), admin, 'GET', `/api/experiments/${experimentId}/monitor`),
      200,
    );
    expect(monitor.summary.conditions).toEqual({ sleep: 2, teeth: 2, screens: 2 });
    expect(monitor.funnel.assigned).toEqual({ sleep: 2, teeth: 2, screens: 2 });
    expect(Object.keys(monitor.spend.by_condition)).toEqual(['sleep', 'teeth', 'screens']);
    const stratum = monitor.srm.strata.find((s) => s.stratum === '3-4');
    expect(stratum?.counts).toEqual({ sleep: 2, teeth: 2, screens: 2 });
    expect(stratum?.p_value).toBe(1);
    expect(monitor.srm.warning).toBeNull();

    const participants = csvObjects(
      (await send(t(), admin, 'GET', `/api/experiments/${experimentId}/export/participants.csv`)).body,
    );
    expect(
      participants
        .map((p) => p.condition)
        .filter(Boolean)
        .sort(),
    ).toEqual(['screens', 'screens', 'sleep', 'sleep', 'teeth', 'teeth']);
    expect(
      participants
        .filter((p) => p.condition)
        .every((p) => Number(p.randomisation_position) >= 1 && Number(p.randomisation_position) <= 6),
    ).toBe(true);
    const codebook = csvObjects(
      (await send(t(), admin, 'GET', `/api/experiments/${experimentId}/export/codebook.csv`)).body,
    );
    const conditionEntries = codebook.filter((e) => e.column === 'condition');
    expect(conditionEntries.map((e) => e.file).sort()).toEqual(['messages.csv', 'participants.csv']);
    for (const entry of conditionEntries) expect(entry.allowed_values).toBe('sleep; teeth; screens');
    const position = codebook.find((e) => e.file === 'participants.csv' && e.column === 'randomisation_position');
    expect(position?.allowed_values).toBe('1-6');
  });

  it('lets the admin preview only one of the three conditions', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experimentId = await threeConditionExperiment(t(), admin);
    const ok = await send(t(), admin, 'POST', `/api/experiments/${experimentId}/previews`, { condition: 'screens' });
    expect(ok.statusCode).toBe(201);
    const refused = expectJson<{ code: string; error: string }>(
      await send(t(), admin, 'POST', `/api/experiments/${experimentId}/previews`, { condition: 'mmr' }),
      400,
    );
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(refused.error).toContain('sleep, teeth, screens');
  });
});
