import { describe, expect, it } from 'vitest';
import type { Journey } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, participantAt, send, surveyBody } from '../participants/journey.fixtures.js';
import { assignmentConsentUpdate } from '../participants/assignments.repository.js';
import { JourneyAfter } from './journey-after.js';
import { journeyWrite } from './journey.service.js';
import { participantRecords, twoSectionStudy } from './journey.testing.js';

// Decision 0070: a write whose reply carries the journey (0068) makes it from the facts it read under the
// participant's lock and its own changes, with no read after its commit. It must be exactly what the journey
// read answers right after: checked here for every such write, its repeat, and on both databases.
describe.each(TEST_DIALECTS)('the journey a write hands over, on %s', (dialect) => {
  const t = useTestApp(dialect, { deps: { studies: () => Promise.resolve(twoSectionStudy) } });

  const read = async (user: TestUser, experimentId: string) =>
    expectJson<Journey>(await send(t(), user, 'GET', `/api/participants/journey/${experimentId}`), 200);

  /** Sends the write twice (the second is a repeat); each reply's journey equals the read right after it. */
  async function expectHandedJourney(
    user: TestUser,
    experimentId: string,
    write: () => ReturnType<typeof send>,
    step: Journey['step'],
  ): Promise<Journey> {
    let first: Journey | undefined;
    for (const attempt of ['first', 'repeat']) {
      const reply = expectJson<{ journey?: Journey }>(await write(), 200);
      expect(reply.journey, attempt).toEqual(await read(user, experimentId));
      expect(reply.journey?.step, attempt).toBe(step);
      first ??= reply.journey;
    }
    if (!first) throw new Error('no journey');
    return first;
  }

  it('consent, the entry and baseline answers, the condition and the last finish: each the journey read after it', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id: experimentId } = await createExperiment(t(), admin);
    const user = await participantAt(t(), experimentId, 'joined');
    const study = await t().deps.studies(experimentId);
    const survey = (type: string, responses: Record<string, unknown>) => () =>
      send(t(), user, 'POST', '/api/surveys', surveyBody(user.id, experimentId, type, responses));

    const consent = () => send(t(), user, 'POST', '/api/participants/consent', { experimentId });
    await expectHandedJourney(user, experimentId, consent, 'entry');
    await expectHandedJourney(
      user,
      experimentId,
      survey('entry', { [study.entry.key]: study.entry.values.continue }),
      'baseline',
    );
    await expectHandedJourney(user, experimentId, survey('baseline', { [study.baseline.key]: '3' }), 'pre_survey');
    const preAnswers = Object.fromEntries(
      study.pre.questions.map((q) => [q.key, q.type === 'scale' ? '4' : q.options?.[0]?.value]),
    );
    expectJson(await survey('pre', preAnswers)(), 200);
    const assign = () => send(t(), user, 'POST', '/api/participants/assign-condition', { experimentId });
    const assigned = await expectHandedJourney(user, experimentId, assign, 'sections');
    expect(assigned.condition).not.toBeNull();

    const sections = assigned.sections;
    expect(sections.length).toBeGreaterThan(1);
    expectJson(
      await send(t(), user, 'POST', '/api/participants/sections/open', { experimentId, sectionIndex: 0 }),
      200,
    );
    for (const section of sections) {
      t().clock.advance(section.minSeconds * 1000);
      const finish = () =>
        send(t(), user, 'POST', '/api/participants/sections/finish', {
          experimentId,
          sectionIndex: section.index,
          visibleSeconds: section.minSeconds - 1,
          hiddenSeconds: 1,
        });
      if (section.index + 1 < sections.length) {
        expect(expectJson<{ journey?: Journey }>(await finish(), 200).journey).toBeUndefined();
      } else {
        // The last finish: the journey with every section's server times and the seconds the page reported.
        const atChat = await expectHandedJourney(user, experimentId, finish, 'chat');
        expect(atChat.sections.every((s) => s.finishedAt !== null)).toBe(true);
      }
    }
  });

  it('refuses, and rolls back, a write that hands over a journey without saying what it changed', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id: experimentId } = await createExperiment(t(), admin);
    const user = await participantAt(t(), experimentId, 'joined');
    const before = await participantRecords(t(), user.id, experimentId);
    const after = new JourneyAfter();
    await expect(
      journeyWrite(
        t().deps,
        { userId: user.id, experimentId, write: { kind: 'consent' }, after },
        {
          repeat: async ({ state }) => state.facts.assignment,
          apply: async ({ trx, state, now, writeWithEvent }) => {
            const [row] = await writeWithEvent(
              assignmentConsentUpdate(trx, state.facts.assignment.id, now.toISOString()),
              { type: 'consented' },
            );
            if (!row) throw new Error('no row');
            return { result: row, eventWritten: true };
          },
        },
      ),
    ).rejects.toThrow('the step did not say what it changed');
    expect(await participantRecords(t(), user.id, experimentId)).toEqual(before);
    expect(() => after.journey).toThrow('did not hand over its journey');
  });
});
