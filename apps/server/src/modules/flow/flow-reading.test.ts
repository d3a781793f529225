import { describe, expect, it } from 'vitest';
import type { FlowDefinition, FlowView } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { send } from '../participants/journey.fixtures.js';
import { flowExperiment, flowParticipant, flowUrl, viewOf, walk } from './flow.testing.js';

// A flow's timed reading step (issue 30): sections one at a time, each finished only once its minimum has passed
// on the server's clock since it opened; a condition without sections skips the step.

const section = (id: string, minSeconds: number) => ({
  id,
  title: `Section ${id}`,
  minSeconds,
  blocks: [{ paragraphs: [`The text of ${id}.`] }],
});

const readingFlow: FlowDefinition = {
  format: 'flow',
  id: 'reading',
  title: 'Reading flow',
  texts: { welcome: 'A test study', disclaimer: 'For testing only.' },
  conditions: [
    { id: 'reader', label: 'Reads' },
    { id: 'skipper', label: 'Reads nothing' },
  ],
  pathways: [{ key: 'complete', label: 'whole study' }],
  steps: [
    { id: 'hello', type: 'page', title: 'Hello', blocks: [{ paragraphs: ['Hello.'] }], button: 'Next' },
    { id: 'assign', type: 'randomise', weights: { reader: 1, skipper: 1 } },
    {
      id: 'read',
      type: 'reading',
      title: 'Please read',
      intro: ['Three short texts follow.'],
      sections: { reader: [section('a', 20), section('b', 10), section('c', 5)] },
    },
    { id: 'done', type: 'end', pathway: 'complete', title: 'Thanks', blocks: [{ paragraphs: ['Done.'] }] },
  ],
};

describe.each(TEST_DIALECTS)("a flow's reading step on %s", (dialect) => {
  const t = useTestApp(dialect);

  it('gives one section at a time, each only after its minimum on the server clock, and skips a condition without', async () => {
    const experimentId = await flowExperiment(t(), await createAndLogin(t(), { isAdmin: true }), readingFlow);
    // Permuted blocks of two: one participant reads, the other skips.
    const users = [await flowParticipant(t(), experimentId), await flowParticipant(t(), experimentId)];
    const views = await Promise.all(users.map((u) => walk(t(), u, experimentId, { until: 'read' })));
    const readerAt = views.findIndex((v) => v.step.id === 'read');
    const reader = users[readerAt];
    const skipper = users[1 - readerAt];
    if (!reader || !skipper) throw new Error('no reader');
    // The condition without sections walked past the reading step to its code.
    expect(views[1 - readerAt]).toMatchObject({ completed: true, step: { id: 'done', code: 'CODE-COMPLETE' } });

    const finish = (index: number, visibleSeconds = 1) =>
      send(t(), reader, 'POST', flowUrl(experimentId, 'read'), { section: index, visibleSeconds, hiddenSeconds: 0 });
    const first = views[readerAt] as FlowView;
    expect(first.step).toMatchObject({
      type: 'reading',
      intro: ['Three short texts follow.'],
      section: { index: 0, count: 3, title: 'Section a', remainingSeconds: 20 },
    });
    // Too early: refused with the seconds left; nothing recorded.
    t().clock.advance(15_000);
    const early = await finish(0);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'SECTION_TOO_EARLY', remainingSeconds: 5 });
    // Out of order: section 2 before 1.
    expect((await finish(1)).json()).toMatchObject({ code: 'STEP_OUT_OF_ORDER', flowStep: 'read' });
    // A second device sees the same section and the time left since it opened.
    expect((await viewOf(t(), reader, experimentId)).step).toMatchObject({
      section: { index: 0, remainingSeconds: 5 },
    });

    t().clock.advance(5_000);
    const second = expectJson<FlowView>(await finish(0), 200);
    expect(second.step).toMatchObject({ id: 'read', intro: [], section: { index: 1, remainingSeconds: 10 } });
    // A repeat of section 1's finish changes nothing.
    expect(expectJson<FlowView>(await finish(0), 200).step).toMatchObject({ section: { index: 1 } });
    t().clock.advance(10_000);
    expectJson(await finish(1), 200);
    t().clock.advance(5_000);
    const after = expectJson<FlowView>(await finish(2, 7), 200);
    expect(after.step).toMatchObject({ id: 'done', type: 'end', code: 'CODE-COMPLETE' });

    const record = await t()
      .database.db.selectFrom('step_records')
      .innerJoin('assignments', 'assignments.id', 'step_records.assignment_id')
      .where('assignments.user_id', '=', reader.id)
      .where('step_records.step_id', '=', 'read')
      .select(['step_records.data', 'step_records.done_at'])
      .executeTakeFirstOrThrow();
    const data = JSON.parse(String(record.data)) as { sections: { visibleSeconds: number }[] };
    expect(data.sections.map((s) => s.visibleSeconds)).toEqual([1, 1, 7]);
    expect(record.done_at).not.toBeNull();
    const events = await t()
      .database.db.selectFrom('journey_events')
      .where('user_id', '=', reader.id)
      .where('step', '=', 'read')
      .select('type')
      .orderBy('seq')
      .execute();
    expect(events.map((e) => e.type)).toEqual([
      'section_too_early',
      'out_of_order',
      'section_finished',
      'section_finished',
      'section_finished',
      'step_done',
    ]);
  });
});
