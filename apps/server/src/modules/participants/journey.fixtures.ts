import type { LightMyRequestResponse } from 'fastify';
import type { Assignment, Experiment } from '@studychat/contracts';
import { createAndLogin, expectJson, type TestApp, type TestUser } from '../../../test/app.js';

// Test helpers for the participant journey: drive the real routes step by step.

export const CODES = { complete: 'CODE-COMPLETE', exitnoqualms: 'CODE-NOQUALMS', exitceiling: 'CODE-CEILING' };

export function send(
  t: TestApp,
  user: TestUser | undefined,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    ...(user ? { headers: user.headers } : {}),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/** Creates an experiment as the admin, with all three codes unless `codes` is false. */
export async function createExperiment(t: TestApp, admin: TestUser, codes = true): Promise<Experiment> {
  const created = expectJson<Experiment>(
    await send(t, admin, 'POST', '/api/experiments', { name: 'MMR study', description: 'A test' }),
    201,
  );
  if (codes) {
    expectJson(await send(t, admin, 'PUT', `/api/experiments/${created.id}/completion-codes`, { codes: CODES }), 200);
  }
  return created;
}

export type Step = 'joined' | 'consented' | 'confirm' | 'questions' | 'baseline' | 'pre' | 'assigned' | 'post';
const ORDER: Step[] = ['joined', 'consented', 'questions', 'baseline', 'pre', 'assigned', 'post'];

/**
 * A new participant of the experiment, taken through the flow up to and including `until`
 * ('confirm' takes the no-concerns entry choice instead of 'questions').
 */
export async function participantAt(
  t: TestApp,
  experimentId: string,
  until: Step,
  options: { baseline?: number; pid?: string } = {},
): Promise<TestUser> {
  const user = await createAndLogin(t);
  const pid = options.pid ?? `PID-${user.id.slice(0, 8)}`;
  const survey = (survey_type: string, responses: Record<string, unknown>) =>
    send(t, user, 'POST', '/api/surveys', {
      user_id: user.id,
      experiment_id: experimentId,
      prolific_pid: pid,
      survey_type,
      responses,
    });
  const steps: Record<Step, () => Promise<LightMyRequestResponse>> = {
    joined: () =>
      send(t, user, 'POST', '/api/participants', { user_id: user.id, experiment_id: experimentId, prolific_pid: pid }),
    consented: () => send(t, user, 'POST', '/api/participants/consent', { experimentId }),
    confirm: () => survey('entry', { choice: 'confirm' }),
    questions: () => survey('entry', { choice: 'questions' }),
    baseline: () => survey('baseline', { vaccination_intention: String(options.baseline ?? 4) }),
    pre: () => survey('pre', { age: '25-34', sex: 'female', political_leaning: 'moderate' }),
    assigned: () => send(t, user, 'POST', '/api/participants/assign-condition', { experimentId }),
    post: () => survey('post', { post_intent: 6 }),
  };
  const path = until === 'confirm' ? ['joined', 'consented', 'confirm'] : ORDER.slice(0, ORDER.indexOf(until) + 1);
  for (const step of path as Step[]) {
    const res = await steps[step]();
    if (res.statusCode >= 300) throw new Error(`step ${step} failed: ${res.statusCode} ${res.body}`);
  }
  return user;
}

export async function assignmentOf(t: TestApp, user: TestUser, experimentId: string): Promise<Assignment> {
  return expectJson<Assignment>(await send(t, user, 'GET', `/api/participants/${user.id}/${experimentId}`), 200);
}
