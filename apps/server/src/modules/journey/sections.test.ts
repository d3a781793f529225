import { describe, expect, it } from 'vitest';
import type { Journey, SectionReply } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { buildSectionView } from '../../../test/factories.js';
import {
  chatRounds,
  COMPLETE_CHAT,
  createExperiment,
  participantAt,
  send,
  surveyBody,
} from '../participants/journey.fixtures.js';
import { dataOf, errorOf, eventsOf, participantRecords, twoSectionStudy } from './journey.testing.js';

describe.each(TEST_DIALECTS)('server-timed sections and the journey read on %s', (dialect) => {
  const t = useTestApp(dialect, { deps: { studies: () => Promise.resolve(twoSectionStudy) } });

  async function assigned(): Promise<{ user: TestUser; experimentId: string }> {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id: experimentId } = await createExperiment(t(), admin);
    return { user: await participantAt(t(), experimentId, 'assigned'), experimentId };
  }
  const open = (user: TestUser, experimentId: string, sectionIndex: number) =>
    send(t(), user, 'POST', '/api/participants/sections/open', { experimentId, sectionIndex });
  const finish = (user: TestUser, experimentId: string, sectionIndex: number, visibleSeconds = 12, hiddenSeconds = 3) =>
    send(t(), user, 'POST', '/api/participants/sections/finish', {
      experimentId,
      sectionIndex,
      visibleSeconds,
      hiddenSeconds,
    });
  const journey = async (user: TestUser, experimentId: string) =>
    expectJson<Journey>(await send(t(), user, 'GET', `/api/participants/journey/${experimentId}`), 200);

  it('opens a section on the server clock and refuses finishing before its minimum, with the seconds left', async () => {
    const { user, experimentId } = await assigned();
    const openedAt = t().clock.now.toISOString();
    const opened = expectJson<SectionReply>(await open(user, experimentId, 0), 200);
    expect(opened.section).toMatchObject({
      index: 0,
      minSeconds: 15,
      openedAt,
      finishedAt: null,
      remainingSeconds: 15,
      remainingMs: 15_000,
    });
    expect(opened.section.id).toMatch(/-a$/);

    t().clock.advance(14_001);
    const before = await participantRecords(t(), user.id, experimentId);
    const early = await finish(user, experimentId, 0);
    expect(early.statusCode).toBe(409);
    expect(errorOf(early)).toEqual({
      error: 'Please keep reading: this section can be finished in 1 second.',
      code: 'SECTION_TOO_EARLY',
      remainingSeconds: 1,
    });
    expect(await participantRecords(t(), user.id, experimentId)).toEqual(before);
    expect((await eventsOf(t(), user, experimentId)).at(-1)).toMatchObject({
      type: 'section_too_early',
      step: 'sections',
    });

    // A reload (open again) keeps the first opening time: the countdown does not restart.
    const reopened = expectJson<SectionReply>(await open(user, experimentId, 0), 200);
    expect(reopened.section).toMatchObject({ openedAt, remainingMs: 999, remainingSeconds: 1 });

    t().clock.advance(999);
    const done = expectJson<SectionReply>(await finish(user, experimentId, 0, 14.5, 0.5), 200);
    expect(done.section).toMatchObject({
      finishedAt: t().clock.now.toISOString(),
      remainingSeconds: 0,
      visibleSeconds: 14.5,
      hiddenSeconds: 0.5,
    });
    // A repeat is answered with the first finish, whatever it reports.
    t().clock.advance(5_000);
    expect(expectJson<SectionReply>(await finish(user, experimentId, 0, 1, 1), 200).section).toEqual(done.section);
  });

  it('opens sections only in order and keeps the server minimum in wall time, whatever the page reports', async () => {
    const { user, experimentId } = await assigned();
    expect(errorOf(await open(user, experimentId, 1))).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step: 'sections' });
    expect(errorOf(await finish(user, experimentId, 0))).toMatchObject({ code: 'STEP_OUT_OF_ORDER' });
    expectJson(await open(user, experimentId, 0), 200);
    expect((await open(user, experimentId, 1)).statusCode).toBe(409);
    // Reporting a long visible time does not shorten the server's minimum.
    t().clock.advance(5_000);
    expect(errorOf(await finish(user, experimentId, 0, 86_400, 0))).toMatchObject({
      code: 'SECTION_TOO_EARLY',
      remainingSeconds: 10,
    });
    t().clock.advance(10_000);
    expectJson(await finish(user, experimentId, 0), 200);
    expectJson(await open(user, experimentId, 1), 200);
    const read = await journey(user, experimentId);
    expect(read).toMatchObject({ step: 'sections', currentSection: 1 });
    expect(read.sections.map((s) => s.remainingSeconds)).toEqual([0, 40]);
  });

  it('opens the next section in the finishing write: its timing in the reply, the same on a later open and a repeat', async () => {
    const { user, experimentId } = await assigned();
    expectJson(await open(user, experimentId, 0), 200);
    t().clock.advance(15_000);
    const finishedAt = t().clock.now.toISOString();
    const done = expectJson<SectionReply>(await finish(user, experimentId, 0), 200);
    expect(done.next).toMatchObject({ index: 1, openedAt: finishedAt, finishedAt: null, remainingSeconds: 40 });
    expect((await eventsOf(t(), user, experimentId)).slice(-2).map((e) => e.type)).toEqual([
      'section_finished',
      'section_opened',
    ]);
    t().clock.advance(2_000);
    // The page's open (an older page, or a reload) is answered with that opening: the clock did not restart.
    const reopened = expectJson<SectionReply>(await open(user, experimentId, 1), 200);
    expect(reopened.section).toMatchObject({ openedAt: finishedAt, remainingSeconds: 38 });
    // A repeated finish (its reply was lost) carries the next section again.
    expect(expectJson<SectionReply>(await finish(user, experimentId, 0), 200).next).toMatchObject({
      index: 1,
      openedAt: finishedAt,
    });
    expect((await eventsOf(t(), user, experimentId)).filter((e) => e.type === 'section_opened')).toHaveLength(2);
    expect(await journey(user, experimentId)).toMatchObject({ step: 'sections', currentSection: 1 });
  });

  it('opens nothing after the last section: its finish leads to the chat', async () => {
    const { user, experimentId } = await assigned();
    expectJson(await open(user, experimentId, 0), 200);
    const { sections } = await journey(user, experimentId);
    let last: SectionReply | undefined;
    for (const section of sections) {
      t().clock.advance(section.minSeconds * 1000);
      last = expectJson<SectionReply>(await finish(user, experimentId, section.index), 200);
      expect(last.next?.index).toBe(section.index + 1 < sections.length ? section.index + 1 : undefined);
      // Only the last finish leads to another page: it carries the journey, the others do not read it.
      if (section.index + 1 < sections.length) expect(last.journey).toBeUndefined();
    }
    expect(last && 'next' in last).toBe(false);
    expect(last?.journey).toEqual(await journey(user, experimentId));
    expect(last?.journey?.step).toBe('chat');
  });

  it('gives the same remaining time to any device: the journey read counts from the server opening', async () => {
    const { user, experimentId } = await assigned();
    expectJson(await open(user, experimentId, 0), 200);
    t().clock.advance(15_000);
    expectJson(await finish(user, experimentId, 0), 200);
    expectJson(await open(user, experimentId, 1), 200);
    t().clock.advance(7_500);
    // A second device: a fresh login of the same account.
    const second = await t().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
    });
    const token = expectJson<{ token: string }>(second, 200).token;
    const other = { ...user, token, headers: { authorization: `Bearer ${token}` } };
    const read = await journey(other, experimentId);
    expect(read.serverTime).toBe(t().clock.now.toISOString());
    expect(read.currentSection).toBe(1);
    expect(read.sections[1]).toMatchObject({ remainingMs: 32_500, remainingSeconds: 33, finishedAt: null });
    expect(read.sections[0]).toMatchObject({ remainingSeconds: 0, visibleSeconds: 12, hiddenSeconds: 3 });
  });

  it('counts a section finished too early in the data as unread: the participant reads it again', async () => {
    const { user, experimentId } = await assigned();
    const [assignment] = (await participantRecords(t(), user.id, experimentId)).assignments;
    if (!assignment) throw new Error('no assignment');
    // Finished after 5 s of a 15 s minimum (e.g. data from an old client): not read in time.
    const early = buildSectionView(assignment, 0, {
      condition: assignment.assigned_condition ?? 'mmr',
      min_seconds: 15,
      seconds: 5,
      opened_at: new Date(t().clock.now.getTime() - 60_000).toISOString(),
      finished_at: new Date(t().clock.now.getTime() - 55_000).toISOString(),
    });
    await t().database.db.insertInto('section_views').values(early).execute();
    expect(await journey(user, experimentId)).toMatchObject({ step: 'sections', currentSection: 0 });
    expect((await open(user, experimentId, 1)).statusCode).toBe(409);
    // Its opening was long ago, so finishing it now is allowed and counts.
    expectJson(await finish(user, experimentId, 0), 200);
    expect(await journey(user, experimentId)).toMatchObject({ step: 'sections', currentSection: 1 });
  });

  it('opens the chat only after the sections, and the post-survey only after a chat complete by the server count', async () => {
    const { user, experimentId } = await assigned();
    const initiate = () => send(t(), user, 'POST', '/api/chat/initiate', { experimentId });
    const post = () =>
      send(t(), user, 'POST', '/api/surveys', surveyBody(user.id, experimentId, 'post', { post_intent: 4 }));
    expect(errorOf(await initiate())).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step: 'sections' });
    expectJson(await open(user, experimentId, 0), 200);
    t().clock.advance(15_000);
    expectJson(await finish(user, experimentId, 0), 200);
    expect(errorOf(await initiate())).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step: 'sections' });
    expectJson(await open(user, experimentId, 1), 200);
    t().clock.advance(40_000);
    expectJson(await finish(user, experimentId, 1), 200);

    // Three short messages: 3 rounds but under 100 points; two long ones: points but 2 rounds.
    const threadId = await chatRounds(t(), user, experimentId, ['ok', 'yes', 'no']);
    expect(errorOf(await post())).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step: 'chat' });
    const read = await journey(user, experimentId);
    expect(read.chat).toEqual({ threadId, rounds: 3, chars: 7, points: 33.5, complete: false, closed: null });
    expect(read.done).toMatchObject({ sections: true, chat: false });
    const code = await send(t(), user, 'GET', `/api/experiments/${experimentId}/completion-code?pathway=complete`);
    expect(errorOf(code).code).toBe('PATHWAY_NOT_EARNED');

    for (const message of COMPLETE_CHAT.slice(0, 2)) {
      const res = await send(t(), user, 'POST', `/api/chat/threads/${threadId}/messages`, { message });
      expect(res.statusCode).toBe(200);
    }
    expect((await journey(user, experimentId)).step).toBe('post_survey');
    const chatEvents = (await eventsOf(t(), user, experimentId)).filter((e) => e.type === 'chat_complete');
    expect(chatEvents).toHaveLength(1);
    expect(dataOf(chatEvents[0])).toMatchObject({ threadId, rounds: 5 });
    expectJson(await post(), 200);
    expectJson(await send(t(), user, 'GET', `/api/experiments/${experimentId}/completion-code?pathway=complete`), 200);
    // Chatting on after completion does not log completion again.
    await send(t(), user, 'POST', `/api/chat/threads/${threadId}/messages`, { message: COMPLETE_CHAT[2] });
    expect((await eventsOf(t(), user, experimentId)).filter((e) => e.type === 'chat_complete')).toHaveLength(1);
  });

  it('lets a chat ended by a limit end the chat step: the model never blocks the journey', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id: experimentId } = await createExperiment(t(), admin);
    const limits = { overrides: { maxMessages: 2 } };
    expectJson(await send(t(), admin, 'PUT', `/api/experiments/${experimentId}/chat-limits`, limits), 200);
    const user = await participantAt(t(), experimentId, 'sections');
    const threadId = await chatRounds(t(), user, experimentId, ['ok', 'yes']);
    const read = await journey(user, experimentId);
    expect(read).toMatchObject({ step: 'post_survey', done: { chat: true } });
    expect(read.chat).toMatchObject({ threadId, rounds: 2, complete: false, closed: 'message_limit' });
    const logged = (await eventsOf(t(), user, experimentId)).filter((e) => e.type === 'chat_complete');
    expect(logged.map(dataOf)).toEqual([{ threadId, closed: 'message_limit', rounds: 2, points: 22.5 }]);
    expectJson(
      await send(t(), user, 'POST', '/api/surveys', surveyBody(user.id, experimentId, 'post', { post_intent: 5 })),
      200,
    );
  });

  it('reads the whole journey: steps done, condition, pathway, completion, sections, chat and server time', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id: experimentId } = await createExperiment(t(), admin);
    const joined = await participantAt(t(), experimentId, 'joined');
    expect(await journey(joined, experimentId)).toEqual({
      experimentId,
      step: 'consent',
      currentSection: null,
      done: {
        consent: false,
        entry: false,
        baseline: false,
        preSurvey: false,
        assignment: false,
        sections: false,
        chat: false,
        postSurvey: false,
        completion: false,
      },
      entryChoice: null,
      baselineIntention: null,
      condition: null,
      pathway: null,
      completion: { alreadyCompleted: false, completionPathway: null, completionCode: null },
      sections: [],
      chat: { threadId: null, rounds: 0, chars: 0, points: 0, complete: false, closed: null },
      serverTime: t().clock.now.toISOString(),
    });
    const done = await participantAt(t(), experimentId, 'completed', { baseline: 5 });
    const read = await journey(done, experimentId);
    expect(read).toMatchObject({
      step: 'completed',
      entryChoice: 'questions',
      baselineIntention: 5,
      pathway: 'complete',
      completion: { alreadyCompleted: true, completionPathway: 'complete', completionCode: 'CODE-COMPLETE' },
      chat: { rounds: 3, complete: true },
    });
    expect(Object.values(read.done).every(Boolean)).toBe(true);
    expect(read.sections.map((s) => [s.minSeconds, s.remainingSeconds])).toEqual([
      [15, 0],
      [40, 0],
    ]);
    const ceiling = await participantAt(t(), experimentId, 'baseline', { baseline: 7 });
    expect(await journey(ceiling, experimentId)).toMatchObject({ step: 'ceiling_exit', pathway: 'ceiling' });
    // Not joined (or an unknown experiment): 404, like the other participant records.
    const stranger = await createAndLogin(t());
    expect(errorOf(await send(t(), stranger, 'GET', `/api/participants/journey/${experimentId}`)).code).toBe(
      'NOT_FOUND',
    );
  });
});
