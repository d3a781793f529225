import { describe, expect, it } from 'vitest';
import type { Assignment, AssignmentReply, CompletionStatus, GeneratedCredential, Journey } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { NO_PARTICIPATION } from '../journey/journey-errors.js';
import { assignmentOf, createExperiment, participantAt, send } from './journey.fixtures.js';

type ErrorBody = { error: string; code: string };
const MISSING = '00000000-0000-4000-8000-000000000000';

/** A write's reply without the journey it carries (which tells the time, so it moves with the clock). */
const withoutJourney = ({ journey: _journey, ...rest }: AssignmentReply): Assignment => rest;

describe.each(TEST_DIALECTS)('participant routes on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function setup() {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin);
    return { admin, experimentId: experiment.id };
  }

  const readJourney = async (user: TestUser, experimentId: string) =>
    expectJson<Journey>(await send(t(), user, 'GET', `/api/participants/journey/${experimentId}`), 200);

  const join = (user: TestUser, experimentId: string, extra: Record<string, unknown> = {}) =>
    send(t(), user, 'POST', '/api/participants', {
      user_id: user.id,
      experiment_id: experimentId,
      prolific_pid: 'PID-1',
      ...extra,
    });

  describe('joining an experiment', () => {
    it('creates the assignment with the landing ids, then answers 409 and the GET returns it', async () => {
      const { experimentId } = await setup();
      const user = await createAndLogin(t());
      const { journey, ...created } = expectJson<AssignmentReply>(
        await join(user, experimentId, { study_id: 'STUDY-9', session_id: 'SESSION-3' }),
        201,
      );
      // The reply carries the journey the consent page's guard would read (decision 0068).
      expect(journey).toEqual(await readJourney(user, experimentId));
      expect(journey?.step).toBe('consent');
      expect(created).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        user_id: user.id,
        experiment_id: experimentId,
        prolific_pid: 'PID-1',
        study_id: 'STUDY-9',
        session_id: 'SESSION-3',
        assigned_condition: null,
        stratum: null,
        condition_assigned_at: null,
        consent_given: false,
        consent_timestamp: null,
        created_at: '2026-11-20T10:00:00.000Z',
        intervention_completed_timestamp: null,
        completion_pathway: null,
        completed_at: null,
      });
      const again = expectJson<ErrorBody>(await join(user, experimentId), 409);
      expect(again.code).toBe('CONFLICT');
      expect(await assignmentOf(t(), user, experimentId)).toEqual(created);
    });

    it('stores missing landing ids as null', async () => {
      const { experimentId } = await setup();
      const user = await createAndLogin(t());
      const created = expectJson<Assignment>(await join(user, experimentId, { study_id: null }), 201);
      expect(created).toMatchObject({ study_id: null, session_id: null });
    });

    it('answers 404 before joining, and for an unknown experiment', async () => {
      const { experimentId } = await setup();
      const user = await createAndLogin(t());
      expect(
        expectJson<ErrorBody>(await send(t(), user, 'GET', `/api/participants/${user.id}/${experimentId}`), 404).code,
      ).toBe('NOT_FOUND');
      expect(expectJson<ErrorBody>(await join(user, MISSING), 404).code).toBe('NOT_FOUND');
    });

    it("keeps participants to their own records: another user's id gets 403, an admin may read", async () => {
      const { admin, experimentId } = await setup();
      const alice = await createAndLogin(t());
      const bob = await createAndLogin(t());
      expectJson(await join(alice, experimentId), 201);
      const asBob = await send(t(), bob, 'POST', '/api/participants', {
        user_id: alice.id,
        experiment_id: experimentId,
        prolific_pid: 'PID-1',
      });
      expect(expectJson<ErrorBody>(asBob, 403).code).toBe('FORBIDDEN');
      const peek = await send(t(), bob, 'GET', `/api/participants/${alice.id}/${experimentId}`);
      expect(expectJson<ErrorBody>(peek, 403).code).toBe('FORBIDDEN');
      const adminView = expectJson<Assignment>(
        await send(t(), admin, 'GET', `/api/participants/${alice.id}/${experimentId}`),
        200,
      );
      expect(adminView.user_id).toBe(alice.id);
      // Bob's own calls act on Bob's (missing) records, never Alice's.
      const consent = await send(t(), bob, 'POST', '/api/participants/consent', { experimentId });
      expect(expectJson<ErrorBody>(consent, 404).code).toBe('NOT_FOUND');
      expect((await assignmentOf(t(), alice, experimentId)).consent_given).toBe(false);
    });

    it('requires a token on every participant route', async () => {
      const { experimentId } = await setup();
      const user = await createAndLogin(t());
      const calls: ['GET' | 'POST' | 'PUT', string, unknown][] = [
        ['POST', '/api/participants', { user_id: user.id, experiment_id: experimentId, prolific_pid: 'P' }],
        ['GET', `/api/participants/${user.id}/${experimentId}`, undefined],
        ['POST', '/api/participants/consent', { experimentId }],
        ['PUT', '/api/participants/prolific-id', { experimentId, prolificId: 'P' }],
        ['POST', '/api/participants/assign-condition', { experimentId }],
        ['POST', '/api/participants/completion', { experimentId, pathway: 'confirm' }],
        ['GET', `/api/participants/status/${experimentId}`, undefined],
        ['GET', `/api/participants/journey/${experimentId}`, undefined],
        ['POST', '/api/participants/sections/open', { experimentId, sectionIndex: 0 }],
        [
          'POST',
          '/api/participants/sections/finish',
          { experimentId, sectionIndex: 0, visibleSeconds: 1, hiddenSeconds: 0 },
        ],
        [
          'POST',
          '/api/surveys',
          { user_id: user.id, experiment_id: experimentId, survey_type: 'entry', responses: {} },
        ],
      ];
      for (const [method, url, payload] of calls) {
        expect(expectJson<ErrorBody>(await send(t(), undefined, method, url, payload), 401).code).toBe(
          'UNAUTHENTICATED',
        );
      }
    });

    it('refuses malformed ids and missing fields with 400', async () => {
      const { experimentId } = await setup();
      const user = await createAndLogin(t());
      for (const payload of [
        { user_id: 'nope', experiment_id: experimentId, prolific_pid: 'P' },
        { user_id: user.id, experiment_id: 'nope', prolific_pid: 'P' },
        { user_id: user.id, experiment_id: experimentId },
        { user_id: user.id, experiment_id: experimentId, prolific_pid: '   ' },
        { user_id: user.id, experiment_id: experimentId, prolific_pid: 'x'.repeat(65) },
      ]) {
        expect(expectJson<ErrorBody>(await send(t(), user, 'POST', '/api/participants', payload), 400).code).toBe(
          'VALIDATION_FAILED',
        );
      }
      expect((await send(t(), user, 'GET', `/api/participants/${user.id}/abc`)).statusCode).toBe(400);
      expect((await send(t(), user, 'POST', '/api/participants/consent', { experimentId: 'abc' })).statusCode).toBe(
        400,
      );
      expect((await send(t(), user, 'GET', '/api/participants/status/abc')).statusCode).toBe(400);
    });
  });

  describe('study logins', () => {
    async function studyLogin(admin: TestUser, experimentId: string): Promise<TestUser> {
      const creds = expectJson<GeneratedCredential[]>(
        await send(t(), admin, 'POST', `/api/experiments/${experimentId}/batch-credentials`, { count: 1 }),
        201,
      );
      const cred = creds[0];
      if (!cred) throw new Error('no credential');
      const res = await t().app.inject({ method: 'POST', url: '/api/auth/login', payload: cred });
      const body = expectJson<{ token: string; user: { id: string } }>(res, 200);
      return {
        id: body.user.id,
        email: cred.email,
        password: cred.password,
        token: body.token,
        headers: { authorization: `Bearer ${body.token}` },
      };
    }

    it('a login generated for one experiment joins that experiment only', async () => {
      const { admin, experimentId } = await setup();
      const other = await createExperiment(t(), admin);
      const user = await studyLogin(admin, experimentId);
      const refused = expectJson<ErrorBody>(await join(user, other.id), 403);
      expect(refused).toEqual({
        error:
          'This study login was created for a different study. Please use the login details provided with this study.',
        code: 'FORBIDDEN',
      });
      expectJson(await join(user, experimentId), 201);
    });

    it('binds a login to the first Prolific id that uses it', async () => {
      const { admin, experimentId } = await setup();
      const user = await studyLogin(admin, experimentId);
      expectJson(await join(user, experimentId, { prolific_pid: 'FIRST' }), 201);

      const same = await send(t(), user, 'PUT', '/api/participants/prolific-id', {
        experimentId,
        prolificId: 'FIRST',
      });
      expect(expectJson<Assignment>(same, 200).prolific_pid).toBe('FIRST');
      const other = await send(t(), user, 'PUT', '/api/participants/prolific-id', {
        experimentId,
        prolificId: 'SECOND',
      });
      const body = expectJson<ErrorBody>(other, 403);
      expect(body.code).toBe('PROLIFIC_ID_MISMATCH');
      expect(body.error).toMatch(/already linked to a different Prolific ID/);
      // A second join attempt with another id is refused as a mismatch, not offered the existing record.
      expect(expectJson<ErrorBody>(await join(user, experimentId, { prolific_pid: 'SECOND' }), 403).code).toBe(
        'PROLIFIC_ID_MISMATCH',
      );
      expect((await assignmentOf(t(), user, experimentId)).prolific_pid).toBe('FIRST');
    });

    it('lets a Prolific id take part once per experiment: a second login gets 409 PROLIFIC_ID_TAKEN, not "joined"', async () => {
      const { admin, experimentId } = await setup();
      const first = await studyLogin(admin, experimentId);
      const second = await studyLogin(admin, experimentId);
      expectJson(await join(first, experimentId, { prolific_pid: 'ONE-PERSON' }), 201);
      const taken = expectJson<ErrorBody>(await join(second, experimentId, { prolific_pid: ' ONE-PERSON ' }), 409);
      expect(taken).toEqual({
        error:
          'This Prolific ID is already taking part in this study with another study login. Please log in with the study login you used first, or contact the research team.',
        code: 'PROLIFIC_ID_TAKEN',
      });
      // Nothing was created for the second login; it may still join with its own id.
      expect((await send(t(), second, 'GET', `/api/participants/${second.id}/${experimentId}`)).statusCode).toBe(404);
      expectJson(await join(second, experimentId, { prolific_pid: 'ANOTHER-PERSON' }), 201);
      // The same id in another experiment is another participation.
      const other = await createExperiment(t(), admin);
      const elsewhere = await createAndLogin(t());
      expectJson(await join(elsewhere, other.id, { prolific_pid: 'ONE-PERSON' }), 201);
    });

    it('refuses setting a Prolific id that another login of the experiment holds (409 PROLIFIC_ID_TAKEN)', async () => {
      const { experimentId } = await setup();
      const holder = await createAndLogin(t());
      expectJson(await join(holder, experimentId, { prolific_pid: 'HELD' }), 201);
      // A login whose assignment has no Prolific id yet (joined before ids were required, e.g. by an admin).
      const late = await createAndLogin(t());
      const [row] = await t()
        .database.db.insertInto('assignments')
        .values({
          id: crypto.randomUUID(),
          user_id: late.id,
          experiment_id: experimentId,
          prolific_pid: null,
          consent_given: false,
          created_at: t().clock.now.toISOString(),
          updated_at: t().clock.now.toISOString(),
        })
        .returning('id')
        .execute();
      const refused = await send(t(), late, 'PUT', '/api/participants/prolific-id', {
        experimentId,
        prolificId: 'HELD',
      });
      expect(expectJson<ErrorBody>(refused, 409).code).toBe('PROLIFIC_ID_TAKEN');
      expect((await assignmentOf(t(), late, experimentId)).prolific_pid).toBeNull();
      const own = await send(t(), late, 'PUT', '/api/participants/prolific-id', { experimentId, prolificId: 'MINE' });
      expect(expectJson<Assignment>(own, 200)).toMatchObject({ id: row?.id, prolific_pid: 'MINE' });
    });

    it('binds the Prolific id across experiments for a login that may join several', async () => {
      const { admin, experimentId } = await setup();
      const other = await createExperiment(t(), admin);
      const user = await createAndLogin(t());
      expectJson(await join(user, experimentId, { prolific_pid: 'FIRST' }), 201);
      expect(expectJson<ErrorBody>(await join(user, other.id, { prolific_pid: 'SECOND' }), 403).code).toBe(
        'PROLIFIC_ID_MISMATCH',
      );
      expectJson(await join(user, other.id, { prolific_pid: 'FIRST' }), 201);
    });
  });

  describe('consent', () => {
    it('records consent once; a repeat keeps the first time', async () => {
      const { experimentId } = await setup();
      const user = await participantAt(t(), experimentId, 'joined');
      const now = t().clock.now.toISOString();
      const first = expectJson<AssignmentReply>(
        await send(t(), user, 'POST', '/api/participants/consent', { experimentId }),
        200,
      );
      expect(first).toMatchObject({ consent_given: true, consent_timestamp: now });
      t().clock.advance(5 * 60_000);
      const again = expectJson<AssignmentReply>(
        await send(t(), user, 'POST', '/api/participants/consent', { experimentId }),
        200,
      );
      expect(withoutJourney(again)).toEqual(withoutJourney(first));
      // Each reply carries the journey as it is then: at the entry question.
      expect(again.journey).toEqual(await readJourney(user, experimentId));
      expect(again.journey?.step).toBe('entry');
    });
  });

  describe('completion', () => {
    const complete = (user: TestUser, experimentId: string, pathway: string, completionCode?: string) =>
      send(t(), user, 'POST', '/api/participants/completion', { experimentId, pathway, completionCode });
    const status = async (user: TestUser, experimentId: string) =>
      expectJson<CompletionStatus>(await send(t(), user, 'GET', `/api/participants/status/${experimentId}`), 200);

    it('reports not completed before anything is recorded, without an assignment, or for an unknown experiment', async () => {
      const { experimentId } = await setup();
      const stranger = await createAndLogin(t());
      const none = { alreadyCompleted: false, completionPathway: null, completionCode: null };
      expect(await status(stranger, experimentId)).toEqual(none);
      const user = await participantAt(t(), experimentId, 'post');
      expect(await status(user, experimentId)).toEqual(none);
      expect(await status(user, MISSING)).toEqual(none);
    });

    it('refuses each pathway before its step (409) and records the server code, never the client one', async () => {
      const { experimentId } = await setup();
      const cases = [
        {
          pathway: 'confirm',
          code: 'CODE-NOQUALMS',
          before: 'consented',
          step: 'entry',
          after: 'confirm',
          baseline: 4,
        },
        {
          pathway: 'ceiling',
          code: 'CODE-CEILING',
          before: 'questions',
          step: 'baseline',
          after: 'baseline',
          baseline: 7,
        },
        {
          pathway: 'complete',
          code: 'CODE-COMPLETE',
          before: 'chatted',
          step: 'post_survey',
          after: 'post',
          baseline: 2,
        },
      ] as const;
      for (const c of cases) {
        const early = await participantAt(t(), experimentId, c.before, { baseline: c.baseline });
        const refused = expectJson<ErrorBody & { step: string }>(
          await complete(early, experimentId, c.pathway, 'FORGED'),
          409,
        );
        expect(refused).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step: c.step });
        expect((await assignmentOf(t(), early, experimentId)).completed_at).toBeNull();

        const done = await participantAt(t(), experimentId, c.after, { baseline: c.baseline });
        const now = t().clock.now.toISOString();
        const recorded = expectJson<CompletionStatus>(await complete(done, experimentId, c.pathway, 'FORGED'), 200);
        expect(recorded).toEqual({ alreadyCompleted: true, completionPathway: c.pathway, completionCode: c.code });
        expect(await status(done, experimentId)).toEqual(recorded);
        const assignment = await assignmentOf(t(), done, experimentId);
        // "Intervention completed" only for those who went through the intervention.
        expect(assignment).toMatchObject({
          completion_pathway: c.pathway,
          completed_at: now,
          intervention_completed_timestamp: c.pathway === 'complete' ? now : null,
        });
      }
    });

    it('records completion once: a repeat returns the stored status unchanged', async () => {
      const { admin, experimentId } = await setup();
      const user = await participantAt(t(), experimentId, 'confirm');
      const now = t().clock.now.toISOString();
      const first = expectJson<CompletionStatus>(await complete(user, experimentId, 'confirm'), 200);
      t().clock.advance(60_000);
      // Even after the code changes and with another pathway asked for, the record stays as it was.
      expectJson(
        await send(t(), admin, 'PUT', `/api/experiments/${experimentId}/completion-codes`, {
          codes: { exitnoqualms: 'NEW-CODE' },
        }),
        200,
      );
      expect(expectJson(await complete(user, experimentId, 'confirm'), 200)).toEqual(first);
      expect(expectJson(await complete(user, experimentId, 'complete'), 200)).toEqual(first);
      expect((await assignmentOf(t(), user, experimentId)).completed_at).toBe(now);
    });

    it('stores a null code when the pathway has no code configured', async () => {
      const admin = await createAndLogin(t(), { isAdmin: true });
      const bare = await createExperiment(t(), admin, false);
      const user = await participantAt(t(), bare.id, 'confirm');
      expect(expectJson(await complete(user, bare.id, 'confirm', 'FORGED'), 200)).toEqual({
        alreadyCompleted: true,
        completionPathway: 'confirm',
        completionCode: null,
      });
    });

    it('refuses an unknown pathway with 400, a missing assignment and an unknown experiment with 404', async () => {
      const { experimentId } = await setup();
      const user = await createAndLogin(t());
      expect((await complete(user, experimentId, 'finished')).statusCode).toBe(400);
      const notJoined = expectJson<ErrorBody>(await complete(user, experimentId, 'confirm'), 404);
      expect(notJoined).toMatchObject({ code: 'NOT_FOUND', error: NO_PARTICIPATION });
      const unknown = expectJson<ErrorBody>(await complete(user, MISSING, 'confirm'), 404);
      expect(unknown).toMatchObject({ code: 'NOT_FOUND', error: 'Experiment not found' });
    });
  });

  describe('condition assignment', () => {
    const assign = (user: TestUser, experimentId: string) =>
      send(t(), user, 'POST', '/api/participants/assign-condition', { experimentId });

    it('assigns a condition in the baseline stratum, recorded with its time, and never changes it', async () => {
      const { experimentId } = await setup();
      const user = await participantAt(t(), experimentId, 'pre', { baseline: 5 });
      const now = t().clock.now.toISOString();
      const assigned = expectJson<AssignmentReply>(await assign(user, experimentId), 200);
      expect(['mmr', 'control']).toContain(assigned.assigned_condition);
      expect(assigned.journey).toMatchObject({ step: 'sections', condition: assigned.assigned_condition });
      expect(assigned).toMatchObject({ stratum: '5-6', condition_assigned_at: now });
      for (let i = 0; i < 3; i++) {
        t().clock.advance(1000);
        expect(withoutJourney(expectJson<AssignmentReply>(await assign(user, experimentId), 200))).toEqual(
          withoutJourney(assigned),
        );
      }
      const slots = await t()
        .database.db.selectFrom('allocation_slots')
        .selectAll()
        .where('assignment_id', '=', assigned.id)
        .execute();
      expect(slots).toHaveLength(1);
      expect(slots[0]).toMatchObject({ condition: assigned.assigned_condition, stratum: '5-6' });
    });

    it('is assigned only after the pre-survey: 409 STEP_OUT_OF_ORDER naming the step otherwise', async () => {
      const { experimentId } = await setup();
      const noBaseline = await participantAt(t(), experimentId, 'questions');
      const missing = expectJson<ErrorBody & { step: string }>(await assign(noBaseline, experimentId), 409);
      expect(missing).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step: 'baseline' });
      expect(missing.error).toMatch(/intention question/);
      const noPre = await participantAt(t(), experimentId, 'baseline', { baseline: 3 });
      expect(expectJson<{ step: string }>(await assign(noPre, experimentId), 409).step).toBe('pre_survey');
      const ceiling = await participantAt(t(), experimentId, 'baseline', { baseline: 7 });
      const refused = expectJson<ErrorBody & { step: string }>(await assign(ceiling, experimentId), 409);
      expect(refused.step).toBe('ceiling_exit');
      expect((await assignmentOf(t(), ceiling, experimentId)).assigned_condition).toBeNull();
      const stranger = await createAndLogin(t());
      expect((await assign(stranger, experimentId)).statusCode).toBe(404);
    });
  });
});
