import { describe, expect, it } from 'vitest';
import { studyDefinition, type Assignment, type StudyDefinition } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { recordExposure } from './exposure.service.js';
import { assignmentOf, createExperiment, participantAt, send } from './journey.fixtures.js';

type ErrorBody = { error: string; code: string };

/** The real study with two known sections per condition, so recording is tested whatever the content. */
const twoSections: StudyDefinition = {
  ...studyDefinition,
  conditions: {
    mmr: {
      topic: 'mmr',
      sections: [
        { id: 'mmr-a', title: 'A', minSeconds: 15, blocks: [] },
        { id: 'mmr-b', title: 'B', minSeconds: 20, blocks: [] },
      ],
    },
    control: {
      topic: 'control',
      sections: [
        { id: 'control-a', title: 'A', minSeconds: 15, blocks: [] },
        { id: 'control-b', title: 'B', minSeconds: 20, blocks: [] },
      ],
    },
  },
};

describe.each(TEST_DIALECTS)('section exposures on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function assignedParticipant() {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id: experimentId } = await createExperiment(t(), admin);
    const user = await participantAt(t(), experimentId, 'assigned');
    const assignment: Assignment = await assignmentOf(t(), user, experimentId);
    return { experimentId, user, assignment };
  }

  const exposures = (userId: string) =>
    t().database.db.selectFrom('section_exposures').selectAll().where('user_id', '=', userId).execute();

  it('records each section once with the definition id, minimum seconds and the server time', async () => {
    const { experimentId, user, assignment } = await assignedParticipant();
    const condition = assignment.assigned_condition;
    if (!condition) throw new Error('no condition');
    const first = await recordExposure(t().deps, twoSections, user.id, {
      experimentId,
      sectionIndex: 1,
      secondsOnScreen: 31.5,
    });
    expect(first).toEqual({ ok: true, sectionIndex: 1 });
    t().clock.advance(60_000);
    await recordExposure(t().deps, twoSections, user.id, { experimentId, sectionIndex: 1, secondsOnScreen: 99 });
    const rows = await exposures(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      experiment_id: experimentId,
      condition,
      section_index: 1,
      section_id: `${condition}-b`,
      min_seconds: 20,
      seconds_on_screen: 31.5,
    });
    expect(new Date(rows[0]?.completed_at ?? '').toISOString()).toBe('2026-11-20T10:00:00.000Z');
    t().clock.now = new Date('2026-11-20T10:00:00.000Z');
    await expect(
      recordExposure(t().deps, twoSections, user.id, { experimentId, sectionIndex: 2, secondsOnScreen: 1 }),
    ).rejects.toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });

  it('accepts every section of the study definition through the route and refuses the index past the end', async () => {
    const { experimentId, user, assignment } = await assignedParticipant();
    const condition = assignment.assigned_condition;
    if (!condition) throw new Error('no condition');
    const sections = studyDefinition.conditions[condition].sections;
    for (const [index, section] of sections.entries()) {
      const res = await send(t(), user, 'POST', '/api/participants/exposures', {
        experimentId,
        sectionIndex: index,
        secondsOnScreen: section.minSeconds + 1,
      });
      expect(expectJson(res, 200)).toEqual({ ok: true, sectionIndex: index });
    }
    expect((await exposures(user.id)).map((r) => r.section_id)).toEqual(sections.map((s) => s.id));
    const past = await send(t(), user, 'POST', '/api/participants/exposures', {
      experimentId,
      sectionIndex: sections.length,
      secondsOnScreen: 1,
    });
    expect(expectJson<ErrorBody>(past, 400).code).toBe('BAD_REQUEST');
  });

  it('needs an assigned condition and valid numbers', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id: experimentId } = await createExperiment(t(), admin);
    const early = await participantAt(t(), experimentId, 'pre');
    const res = await send(t(), early, 'POST', '/api/participants/exposures', {
      experimentId,
      sectionIndex: 0,
      secondsOnScreen: 20,
    });
    expect(expectJson<ErrorBody>(res, 409).code).toBe('NO_CONDITION');
    const stranger = await createAndLogin(t());
    const none = await send(t(), stranger, 'POST', '/api/participants/exposures', {
      experimentId,
      sectionIndex: 0,
      secondsOnScreen: 20,
    });
    expect(none.statusCode).toBe(404);
    for (const payload of [
      { experimentId, sectionIndex: -1, secondsOnScreen: 1 },
      { experimentId, sectionIndex: 0.5, secondsOnScreen: 1 },
      { experimentId, sectionIndex: 0, secondsOnScreen: -3 },
      { experimentId, sectionIndex: 0 },
      { experimentId: 'x', sectionIndex: 0, secondsOnScreen: 1 },
    ]) {
      const bad = await send(t(), early, 'POST', '/api/participants/exposures', payload);
      expect(expectJson<ErrorBody>(bad, 400).code).toBe('VALIDATION_FAILED');
    }
  });
});
