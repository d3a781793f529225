import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createAndLogin, expectJson, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, participantAt, send, surveyBody } from '../participants/journey.fixtures.js';
import { errorOf, eventsOf, participantRecords, twoSectionStudy } from './journey.testing.js';
import { MAX_LOGGED_REFUSALS } from './journey.service.js';

// The journey's routes as a hostile participant would call them: the same write many times at once, another
// participant's records, malformed and hostile values. Every answer is a clear 4xx or the first result,
// never a 500, a second row or a second event.

const AT_ONCE = 5;

describe.each(TEST_DIALECTS)('journey under attack on %s', (dialect) => {
  const t = useTestApp(dialect, { deps: { studies: () => Promise.resolve(twoSectionStudy) } });

  async function experiment(): Promise<string> {
    const admin = await createAndLogin(t(), { isAdmin: true });
    return (await createExperiment(t(), admin)).id;
  }

  /** Sends `make(i)` AT_ONCE times concurrently. */
  const atOnce = (make: (i: number) => Promise<LightMyRequestResponse>) =>
    Promise.all(Array.from({ length: AT_ONCE }, (_, i) => make(i)));

  const typesOf = async (user: TestUser, experimentId: string) =>
    (await eventsOf(t(), user, experimentId)).map((e) => e.type);

  interface Race {
    name: string;
    at: Parameters<typeof participantAt>[2];
    prepare?: (t: TestApp, user: TestUser, experimentId: string) => Promise<void>;
    send: (user: TestUser, experimentId: string, i: number) => Promise<LightMyRequestResponse>;
    event: string;
    /** The table that must hold exactly one new row. */
    rows: (records: Awaited<ReturnType<typeof participantRecords>>) => number;
  }

  const survey = (user: TestUser, experimentId: string, type: string, responses: unknown) =>
    send(t(), user, 'POST', '/api/surveys', surveyBody(user.id, experimentId, type, responses));
  const sections = (user: TestUser, experimentId: string, action: 'open' | 'finish', index: number) =>
    send(t(), user, 'POST', `/api/participants/sections/${action}`, {
      experimentId,
      sectionIndex: index,
      ...(action === 'finish' ? { visibleSeconds: 15, hiddenSeconds: 0 } : {}),
    });

  /** The first section opened and read past its minimum, so it may be finished. */
  const sectionReadInTime = async (tt: TestApp, u: TestUser, e: string) => {
    expectJson(await sections(u, e, 'open', 0), 200);
    tt.clock.advance(15_000);
  };

  const RACES: Race[] = [
    {
      name: 'consent',
      at: 'joined',
      send: (u, e) => send(t(), u, 'POST', '/api/participants/consent', { experimentId: e }),
      event: 'consented',
      rows: (r) => r.assignments.filter((a) => a.consent_timestamp !== null).length,
    },
    {
      name: 'entry, with both choices at once',
      at: 'consented',
      send: (u, e, i) => survey(u, e, 'entry', { choice: i % 2 === 0 ? 'questions' : 'confirm' }),
      event: 'entry',
      rows: (r) => r.surveys.length,
    },
    {
      name: 'baseline, with 4 and 7 at once',
      at: 'questions',
      send: (u, e, i) => survey(u, e, 'baseline', { vaccination_intention: i % 2 === 0 ? '4' : '7' }),
      event: 'baseline',
      rows: (r) => r.surveys.filter((s) => s.survey_type === 'baseline').length,
    },
    {
      name: 'condition assignment',
      at: 'pre',
      send: (u, e) => send(t(), u, 'POST', '/api/participants/assign-condition', { experimentId: e }),
      event: 'assigned',
      rows: (r) => r.slots.length,
    },
    {
      name: 'opening a section',
      at: 'assigned',
      send: (u, e) => sections(u, e, 'open', 0),
      event: 'section_opened',
      rows: (r) => r.views.length,
    },
    {
      name: 'finishing a section',
      at: 'assigned',
      prepare: sectionReadInTime,
      send: (u, e) => sections(u, e, 'finish', 0),
      event: 'section_finished',
      rows: (r) => r.views.filter((v) => v.finished_at !== null).length,
    },
    {
      name: 'finishing a section, which opens the next',
      at: 'assigned',
      prepare: sectionReadInTime,
      send: (u, e) => sections(u, e, 'finish', 0),
      event: 'section_opened',
      rows: (r) => r.views.filter((v) => v.section_index === 1).length,
    },
    {
      name: 'starting the chat',
      at: 'sections',
      send: (u, e) => send(t(), u, 'POST', '/api/chat/initiate', { experimentId: e }),
      event: 'chat_started',
      rows: (r) => r.threads.length,
    },
    {
      name: 'post-survey',
      at: 'chatted',
      send: (u, e, i) => survey(u, e, 'post', { post_intent: 1 + i }),
      event: 'post_survey',
      rows: (r) => r.surveys.filter((s) => s.survey_type === 'post').length,
    },
    {
      name: 'completion, asking for every pathway at once',
      at: 'post',
      send: (u, e, i) =>
        send(t(), u, 'POST', '/api/participants/completion', {
          experimentId: e,
          pathway: ['complete', 'confirm', 'ceiling'][i % 3],
        }),
      event: 'completed',
      rows: (r) => r.assignments.filter((a) => a.completed_at !== null).length,
    },
  ];

  for (const race of RACES) {
    it(`${race.name}: ${AT_ONCE} requests at once store one row and log one event`, async () => {
      const experimentId = await experiment();
      const user = await participantAt(t(), experimentId, race.at);
      await race.prepare?.(t(), user, experimentId);
      const before = await typesOf(user, experimentId);
      const replies = await atOnce((i) => race.send(user, experimentId, i));
      const statuses = replies.map((r) => r.statusCode);
      // The first write wins; the others are its idempotent repeats (or refused once it moved the journey).
      expect(
        statuses.filter((s) => s === 200),
        replies.map((r) => r.body).join('\n'),
      ).not.toHaveLength(0);
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      const after = await typesOf(user, experimentId);
      expect(after.slice(before.length).filter((type) => type === race.event)).toEqual([race.event]);
      expect(race.rows(await participantRecords(t(), user.id, experimentId))).toBe(1);
    });
  }

  it('the same answer for every repeat of a race: all replies carry the first id', async () => {
    const experimentId = await experiment();
    const user = await participantAt(t(), experimentId, 'consented');
    const replies = await atOnce(() => survey(user, experimentId, 'entry', { choice: 'questions' }));
    const bodies = replies.map((r) => expectJson<{ id: string; created: boolean }>(r, 200));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(bodies.filter((b) => b.created)).toHaveLength(1);
  });

  it('joining: one login joining at once gets one assignment; two logins with one Prolific id get one place', async () => {
    const experimentId = await experiment();
    const user = await createAndLogin(t());
    const join = (u: TestUser, pid: string) =>
      send(t(), u, 'POST', '/api/participants', { user_id: u.id, experiment_id: experimentId, prolific_pid: pid });
    const replies = await atOnce(() => join(user, 'PID-RACE'));
    expect(replies.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(replies.filter((r) => r.statusCode === 409).every((r) => errorOf(r).code === 'CONFLICT')).toBe(true);
    expect(await typesOf(user, experimentId)).toEqual(['joined']);

    const logins = await Promise.all(Array.from({ length: AT_ONCE }, () => createAndLogin(t())));
    const shared = await Promise.all(logins.map((u) => join(u, 'PID-SHARED')));
    expect(shared.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const refused = shared.filter((r) => r.statusCode === 409).map(errorOf);
    expect(refused.every((b) => b.code === 'PROLIFIC_ID_TAKEN')).toBe(true);
    expect(refused[0]?.error).toMatch(/already taking part in this study with another study login/);
    const rows = await t()
      .database.db.selectFrom('assignments')
      .select('user_id')
      .where('experiment_id', '=', experimentId)
      .where('prolific_pid', '=', 'PID-SHARED')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("acts only on the caller's own journey: another participant's writes and reads never touch it", async () => {
    const experimentId = await experiment();
    const alice = await participantAt(t(), experimentId, 'assigned');
    const bob = await participantAt(t(), experimentId, 'consented');
    const aliceBefore = await participantRecords(t(), alice.id, experimentId);
    const aliceEvents = await eventsOf(t(), alice, experimentId);
    // Bob's section calls act on Bob's records (he is not at the sections): refused, nothing of Alice's moves.
    expect(errorOf(await sections(bob, experimentId, 'open', 0))).toMatchObject({ step: 'entry' });
    // Bob cannot answer a survey or read a journey as Alice: there is no way to name her but the body, refused.
    expect((await survey(bob, experimentId, 'entry', { choice: 'confirm' })).statusCode).toBe(200);
    // (The answers are checked against the study after the caller: an empty survey as Alice is 403 first.)
    const forged = await send(t(), bob, 'POST', '/api/surveys', surveyBody(alice.id, experimentId, 'pre', {}));
    expect(forged.statusCode).toBe(403);
    const forgedEntry = await send(
      t(),
      bob,
      'POST',
      '/api/surveys',
      surveyBody(alice.id, experimentId, 'entry', { choice: 'confirm' }),
    );
    expect(errorOf(forgedEntry).code).toBe('FORBIDDEN');
    const bobRead = expectJson<{ step: string }>(
      await send(t(), bob, 'GET', `/api/participants/journey/${experimentId}`),
      200,
    );
    expect(bobRead.step).toBe('confirm_exit');
    expect(await participantRecords(t(), alice.id, experimentId)).toEqual(aliceBefore);
    expect(await eventsOf(t(), alice, experimentId)).toEqual(aliceEvents);
    // A participant who never joined another experiment has no journey there.
    const other = await experiment();
    expect((await send(t(), alice, 'GET', `/api/participants/journey/${other}`)).statusCode).toBe(404);
    expect((await sections(alice, other, 'open', 0)).statusCode).toBe(404);
  });

  it('refuses malformed and hostile values with 400 and writes nothing', async () => {
    const experimentId = await experiment();
    const user = await participantAt(t(), experimentId, 'assigned');
    const before = await participantRecords(t(), user.id, experimentId);
    const events = await eventsOf(t(), user, experimentId);
    const bad: [string, unknown][] = [
      ['open', { experimentId, sectionIndex: '0' }],
      ['open', { experimentId, sectionIndex: -1 }],
      ['open', { experimentId, sectionIndex: 1.5 }],
      ['open', { experimentId, sectionIndex: 51 }],
      ['open', { experimentId, sectionIndex: null }],
      ['open', { experimentId: "x' or '1'='1", sectionIndex: 0 }],
      ['open', { experimentId: `${experimentId}\u0000`, sectionIndex: 0 }],
      ['open', { experimentId: 'a'.repeat(5000), sectionIndex: 0 }],
      ['finish', { experimentId, sectionIndex: 0, visibleSeconds: -1, hiddenSeconds: 0 }],
      ['finish', { experimentId, sectionIndex: 0, visibleSeconds: 1, hiddenSeconds: 86_401 }],
      ['finish', { experimentId, sectionIndex: 0, visibleSeconds: '12', hiddenSeconds: 0 }],
      ['finish', { experimentId, sectionIndex: 0, visibleSeconds: 12 }],
      ['finish', { experimentId, sectionIndex: 0, visibleSeconds: 1e308, hiddenSeconds: 0 }],
    ];
    for (const [action, payload] of bad) {
      const res = await send(t(), user, 'POST', `/api/participants/sections/${action}`, payload);
      expect(res.statusCode, `${action} ${JSON.stringify(payload).slice(0, 80)}: ${res.body}`).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
    for (const path of ['not-a-uuid', '..%2F..%2Fadmin', `${experimentId}%00`]) {
      expect((await send(t(), user, 'GET', `/api/participants/journey/${path}`)).statusCode).toBe(400);
    }
    expect(await participantRecords(t(), user.id, experimentId)).toEqual(before);
    expect(await eventsOf(t(), user, experimentId)).toEqual(events);
  });

  it('ignores what the server decides itself: times, ids and codes sent in a body', async () => {
    const experimentId = await experiment();
    const user = await participantAt(t(), experimentId, 'assigned');
    const now = t().clock.now.toISOString();
    const opened = await send(t(), user, 'POST', '/api/participants/sections/open', {
      experimentId,
      sectionIndex: 0,
      openedAt: '2000-01-01T00:00:00.000Z',
      minSeconds: 0,
    });
    expect(expectJson<{ section: { openedAt: string; minSeconds: number } }>(opened, 200).section).toMatchObject({
      openedAt: now,
      minSeconds: 15,
    });
    // A hostile Prolific id in a survey body is never stored: the assignment's is.
    const done = await participantAt(t(), experimentId, 'consented', { pid: 'PID-REAL' });
    const hostile = { ...surveyBody(done.id, experimentId, 'entry', { choice: 'questions' }) };
    hostile.prolific_pid = "'; drop table assignments; --";
    expectJson(await send(t(), done, 'POST', '/api/surveys', hostile), 200);
    const stored = await participantRecords(t(), done.id, experimentId);
    expect(stored.surveys.map((s) => s.prolific_pid)).toEqual(['PID-REAL']);
    // The completion code sent is ignored; the server stores its own.
    const finished = await participantAt(t(), experimentId, 'post');
    const status = await send(t(), finished, 'POST', '/api/participants/completion', {
      experimentId,
      pathway: 'complete',
      completionCode: 'FORGED',
    });
    expect(expectJson<{ completionCode: string }>(status, 200).completionCode).toBe('CODE-COMPLETE');
  });

  it('keeps refusing a flood of out-of-order and too-early writes, but logs only the first few', async () => {
    const experimentId = await experiment();
    const user = await participantAt(t(), experimentId, 'assigned');
    expectJson(await sections(user, experimentId, 'open', 0), 200);
    const extra = 5;
    for (let i = 0; i < MAX_LOGGED_REFUSALS + extra; i += 1) {
      // Alternate an out-of-order write (the post-survey) with a too-early finish of the open section.
      const res =
        i % 2 === 0
          ? await survey(user, experimentId, 'post', { post_intent: 3 })
          : await sections(user, experimentId, 'finish', 0);
      expect(res.statusCode, res.body).toBe(409);
      expect(errorOf(res).code).toBe(i % 2 === 0 ? 'STEP_OUT_OF_ORDER' : 'SECTION_TOO_EARLY');
    }
    const types = await typesOf(user, experimentId);
    const refusals = types.filter((type) => type === 'out_of_order' || type === 'section_too_early');
    expect(refusals).toHaveLength(MAX_LOGGED_REFUSALS);
    // The journey still moves on, and its own events are still logged after the cap.
    t().clock.advance(60_000);
    expectJson(await sections(user, experimentId, 'finish', 0), 200);
    // The finish opens the next section in the same write.
    expect((await typesOf(user, experimentId)).slice(-2)).toEqual(['section_finished', 'section_opened']);
  });
});
