import type { LightMyRequestResponse } from 'fastify';
import { sectionMinSeconds, type Assignment, type Experiment } from '@studychat/contracts';
import { createAndLogin, expectJson, type TestApp, type TestUser } from '../../../test/app.js';

// Test helpers for the participant journey: drive the real routes step by step, moving the test clock
// (never sleeping) where the server times a section.

export const CODES = { complete: 'CODE-COMPLETE', exitnoqualms: 'CODE-NOQUALMS', exitceiling: 'CODE-CEILING' };

/** Three rounds with enough characters for the chat to be complete (30 + 0.5 x 150 >= 100 points). */
export const COMPLETE_CHAT = [
  'What are the common side effects after the dose, and how long do they last?',
  'How often does a fever happen, compared with what measles itself can do?',
  'Thank you. What should I watch for in the days after the appointment?',
];

export function send(
  t: TestApp,
  user: TestUser | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
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

export type Step =
  | 'joined'
  | 'consented'
  | 'confirm'
  | 'questions'
  | 'baseline'
  | 'pre'
  | 'assigned'
  | 'sections'
  | 'chatted'
  | 'post'
  | 'completed';
const ORDER: Step[] = [
  'joined',
  'consented',
  'questions',
  'baseline',
  'pre',
  'assigned',
  'sections',
  'chatted',
  'post',
  'completed',
];

/** Survey payloads of the flow, by survey type. */
export function surveyBody(userId: string, experimentId: string, surveyType: string, responses: unknown) {
  return { user_id: userId, experiment_id: experimentId, prolific_pid: 'PID-BODY', survey_type: surveyType, responses };
}

/** Opens and finishes every section of the participant's condition, each after its minimum on the test clock. */
export async function readAllSections(t: TestApp, user: TestUser, experimentId: string): Promise<void> {
  const { assigned_condition: condition } = await assignmentOf(t, user, experimentId);
  if (!condition) throw new Error('no condition assigned');
  const sections = (await t.deps.studies(experimentId)).conditions[condition]?.sections ?? [];
  for (const [sectionIndex, section] of sections.entries()) {
    expectJson(await send(t, user, 'POST', '/api/participants/sections/open', { experimentId, sectionIndex }), 200);
    t.clock.advance(sectionMinSeconds(section) * 1000);
    const finish = { experimentId, sectionIndex, visibleSeconds: sectionMinSeconds(section), hiddenSeconds: 0 };
    expectJson(await send(t, user, 'POST', '/api/participants/sections/finish', finish), 200);
  }
}

/** Starts the chat and sends `messages`, each answered in full; returns the thread id. */
export async function chatRounds(
  t: TestApp,
  user: TestUser,
  experimentId: string,
  messages: readonly string[] = COMPLETE_CHAT,
): Promise<string> {
  const { threadId } = expectJson<{ threadId: string }>(
    await send(t, user, 'POST', '/api/chat/initiate', { experimentId }),
    200,
  );
  const opening = await send(t, user, 'GET', `/api/chat/threads/${threadId}/initial-message`);
  if (!opening.body.endsWith('data: [DONE]\n\n')) throw new Error(`initial message failed: ${opening.body}`);
  for (const message of messages) {
    const reply = await send(t, user, 'POST', `/api/chat/threads/${threadId}/messages`, { message });
    if (reply.statusCode !== 200 || reply.body.includes('"error"')) throw new Error(`reply failed: ${reply.body}`);
  }
  return threadId;
}

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
  // The answers under the keys and values the experiment's study declares (MMR: 25-34, female, moderate;
  // another study: the first option of each question, 4 on a scale).
  const study = await t.deps.studies(experimentId);
  const preferred = ['25-34', 'female', 'moderate'];
  const preAnswers = Object.fromEntries(
    study.pre.questions.map((q) => [
      q.key,
      q.type === 'scale' ? '4' : (q.options?.find((o) => preferred.includes(o.value)) ?? q.options?.[0])?.value,
    ]),
  );
  const survey = (surveyType: string, responses: Record<string, unknown>) =>
    send(t, user, 'POST', '/api/surveys', surveyBody(user.id, experimentId, surveyType, responses));
  const steps: Record<Step, () => Promise<LightMyRequestResponse>> = {
    joined: () =>
      send(t, user, 'POST', '/api/participants', { user_id: user.id, experiment_id: experimentId, prolific_pid: pid }),
    consented: () => send(t, user, 'POST', '/api/participants/consent', { experimentId }),
    confirm: () => survey('entry', { [study.entry.key]: study.entry.values.exit }),
    questions: () => survey('entry', { [study.entry.key]: study.entry.values.continue }),
    baseline: () => survey('baseline', { [study.baseline.key]: String(options.baseline ?? 4) }),
    pre: () => survey('pre', preAnswers),
    assigned: () => send(t, user, 'POST', '/api/participants/assign-condition', { experimentId }),
    sections: async () => {
      await readAllSections(t, user, experimentId);
      return send(t, user, 'GET', `/api/participants/journey/${experimentId}`);
    },
    chatted: async () => {
      await chatRounds(t, user, experimentId);
      return send(t, user, 'GET', `/api/participants/journey/${experimentId}`);
    },
    post: () => survey('post', { [study.post.key]: 6 }),
    completed: () => send(t, user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' }),
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
