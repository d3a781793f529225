import { describe, expect, it } from 'vitest';
import type { Journey } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, participantAt, send, surveyBody } from './journey.fixtures.js';

type ErrorBody = { error: string; code: string };

// Issue 28: an admin could join an experiment as participant A and answer A's surveys (a baseline of 7 screened A
// out), with no audit entry naming A. A participant's records are written by that participant only
// (docs/decisions/0074-hardening.md); an admin tries the study through "Preview as participant".
describe.each(TEST_DIALECTS)("no one writes another account's study records, on %s", (dialect) => {
  const t = useTestApp(dialect);

  const rowsOf = async (userId: string, experimentId: string) => ({
    assignments: await t()
      .database.db.selectFrom('assignments')
      .select('id')
      .where('user_id', '=', userId)
      .where('experiment_id', '=', experimentId)
      .execute(),
    surveys: await t()
      .database.db.selectFrom('survey_responses')
      .select('survey_type')
      .where('user_id', '=', userId)
      .where('experiment_id', '=', experimentId)
      .execute(),
    events: await t()
      .database.db.selectFrom('journey_events')
      .select('type')
      .where('user_id', '=', userId)
      .where('experiment_id', '=', experimentId)
      .execute(),
  });

  it("refuses an admin joining an experiment as participant A, and answering A's baseline (which would screen A out)", async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experimentId = (await createExperiment(t(), admin)).id;

    const notYet = await createAndLogin(t());
    const join = { user_id: notYet.id, experiment_id: experimentId, prolific_pid: 'PID-NOT-YET' };
    const joined = expectJson<ErrorBody>(await send(t(), admin, 'POST', '/api/participants', join), 403);
    expect(joined).toEqual({ code: 'FORBIDDEN', error: expect.stringMatching(/own study records/) });
    expect(await rowsOf(notYet.id, experimentId)).toEqual({ assignments: [], surveys: [], events: [] });

    const a = await participantAt(t(), experimentId, 'questions');
    const before = await rowsOf(a.id, experimentId);
    const ceiling = surveyBody(a.id, experimentId, 'baseline', { vaccination_intention: '7' });
    expect(expectJson<ErrorBody>(await send(t(), admin, 'POST', '/api/surveys', ceiling), 403).code).toBe('FORBIDDEN');
    expect(await rowsOf(a.id, experimentId)).toEqual(before);
    const journey = expectJson<Journey>(await send(t(), a, 'GET', `/api/participants/journey/${experimentId}`), 200);
    expect(journey.step).toBe('baseline');

    // A answers for themselves; an admin still reads A's assignment, and walks the study as their own account.
    const own = surveyBody(a.id, experimentId, 'baseline', { vaccination_intention: '3' });
    expectJson(await send(t(), a, 'POST', '/api/surveys', own), 200);
    expectJson(await send(t(), admin, 'GET', `/api/participants/${a.id}/${experimentId}`), 200);
    const self = { user_id: admin.id, experiment_id: experimentId, prolific_pid: 'PID-ADMIN-SELF' };
    expectJson(await send(t(), admin, 'POST', '/api/participants', self), 201);
  });
});
