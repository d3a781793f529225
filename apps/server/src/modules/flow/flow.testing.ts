import type { LightMyRequestResponse } from 'fastify';
import type { AnswerValue, FlowDefinition, FlowQuestionView, FlowView } from '@studychat/contracts';
import { createAndLogin, expectJson, type TestApp, type TestUser } from '../../../test/app.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';

// Test helpers for studies written as flows (issue 30): create one, pin it, and walk a participant through it
// by the real routes, answering each question validly unless the test says otherwise.

/** Three answers long enough for any chat rule of the templates (rounds only, or 100 points). */
export const FLOW_CHAT = [
  'What is the strongest evidence on this question, and how sure can anyone be about it?',
  'Which part of that evidence would you weigh most, and why would someone disagree with it?',
  'Thank you. What would be a fair summary of where the evidence stands today for most people?',
];

export function flowUrl(experimentId: string, stepId?: string, generate = false): string {
  const base = `/api/participants/flow/${experimentId}`;
  return stepId === undefined ? base : `${base}/steps/${stepId}${generate ? '/generate' : ''}`;
}

/** A flow pinned to a new experiment, with a code for each of its pathways ("CODE-<KEY>"). */
export async function flowExperiment(t: TestApp, admin: TestUser, flow: FlowDefinition): Promise<string> {
  const experiment = await createExperiment(t, admin, false);
  const version = expectJson<{ id: string }>(
    await send(t, admin, 'POST', '/api/admin/study-versions', { label: flow.title, definition: flow }),
    201,
  );
  expectJson(
    await send(t, admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, { study_version_id: version.id }),
    200,
  );
  const codes = Object.fromEntries(flow.pathways.map((p) => [p.key, `CODE-${p.key.toUpperCase()}`]));
  expectJson(await send(t, admin, 'PUT', `/api/experiments/${experiment.id}/flow-codes`, { codes }), 200);
  return experiment.id;
}

/** A new participant who has joined the experiment. */
export async function flowParticipant(t: TestApp, experimentId: string): Promise<TestUser> {
  const user = await createAndLogin(t);
  const join = { user_id: user.id, experiment_id: experimentId, prolific_pid: `PID-${user.id.slice(0, 8)}` };
  expectJson(await send(t, user, 'POST', '/api/participants', join), 201);
  return user;
}

/** A valid answer to any question: the first option, the middle of a scale, enough text. */
export function validAnswer(q: FlowQuestionView): AnswerValue {
  switch (q.type) {
    case 'single':
      return q.options[0]?.value ?? '';
    case 'multiple':
      return [q.options[0]?.value ?? ''];
    case 'likert':
      return Math.ceil(q.points / 2);
    case 'slider':
      return q.min + Math.round((q.max - q.min) / q.step / 2) * q.step;
    case 'number':
      return q.min ?? 30;
    case 'text':
      return 'A considered answer. '
        .repeat(Math.ceil((q.minChars + 1) / 21))
        .trim()
        .slice(0, q.maxChars);
  }
}

export async function viewOf(t: TestApp, user: TestUser, experimentId: string): Promise<FlowView> {
  return expectJson<FlowView>(await send(t, user, 'GET', flowUrl(experimentId)), 200);
}

export interface WalkOptions {
  /** Answers by key that replace the valid defaults. */
  answers?: Record<string, AnswerValue>;
  /** Stop (without acting) when the participant reaches this step. */
  until?: string;
  /** The text sent when confirming an AI text (none: confirmed as generated). */
  correction?: string;
}

/** Does what the step the participant is at asks; returns the reply of the write. */
export async function act(
  t: TestApp,
  user: TestUser,
  experimentId: string,
  view: FlowView,
  options: WalkOptions = {},
): Promise<LightMyRequestResponse> {
  const { step } = view;
  const post = (body: unknown) => send(t, user, 'POST', flowUrl(experimentId, step.id), body);
  switch (step.type) {
    case 'page':
      if (step.remainingSeconds > 0) t.clock.advance(step.remainingSeconds * 1000);
      return post({});
    case 'questions':
      return post({
        answers: Object.fromEntries(step.questions.map((q) => [q.key, options.answers?.[q.key] ?? validAnswer(q)])),
      });
    case 'ai_text':
      expectJson(await send(t, user, 'POST', flowUrl(experimentId, step.id, true)), 200);
      return post(options.correction === undefined ? {} : { text: options.correction });
    case 'randomise':
    case 'end':
      return post({});
    case 'reading':
      // One section per write: the walk comes back here for the next one.
      if (step.section.remainingSeconds > 0) t.clock.advance(step.section.remainingSeconds * 1000);
      return post({ section: step.section.index, visibleSeconds: step.section.remainingSeconds, hiddenSeconds: 0 });
    case 'chat': {
      const { threadId } = expectJson<{ threadId: string }>(
        await send(t, user, 'POST', '/api/chat/initiate', { experimentId }),
        200,
      );
      const opening = await send(t, user, 'GET', `/api/chat/threads/${threadId}/initial-message`);
      if (!opening.body.endsWith('data: [DONE]\n\n')) throw new Error(`initial message failed: ${opening.body}`);
      for (const message of FLOW_CHAT) {
        const reply = await send(t, user, 'POST', `/api/chat/threads/${threadId}/messages`, { message });
        if (reply.statusCode !== 200 || reply.body.includes('"error"')) throw new Error(`reply failed: ${reply.body}`);
      }
      return send(t, user, 'GET', flowUrl(experimentId));
    }
  }
}

/** Walks the participant until their completion is recorded (or `until`); returns the last view. */
export async function walk(
  t: TestApp,
  user: TestUser,
  experimentId: string,
  options: WalkOptions = {},
): Promise<FlowView> {
  let view = await viewOf(t, user, experimentId);
  for (let i = 0; i < 40 && !view.completed; i++) {
    if (view.step.id === options.until) return view;
    view = expectJson<FlowView>(await act(t, user, experimentId, view, options), 200);
  }
  if (!view.completed && options.until === undefined) throw new Error(`the walk did not end: at ${view.step.id}`);
  return view;
}
