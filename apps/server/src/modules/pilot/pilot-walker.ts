import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  sectionMinSeconds,
  type FlowView,
  type Journey,
  type PilotPersona,
  type StudyDefinition,
} from '@studychat/contracts';
import {
  chatMessage,
  flowAnswer,
  readingSeconds,
  roundSeconds,
  scalePoint,
  textAnswer,
} from './pilot-persona-answers.js';

// One simulated participant's walk through the participant API of the pilot's own app (issue 35,
// docs/decisions/0085): the same routes and bodies a browser sends, every server rule applying; the pilot clock
// moves past each timed step instead of anyone waiting.

/** Most chat rounds a persona tries before the pilot says the chat did not reach its rule. */
export const PILOT_MAX_ROUNDS = 12;
/** Most writes in one walk (a guard against a study that never ends). */
const MAX_ACTIONS = 80;

export interface PilotClock {
  /** Moves the pilot clock forward. */
  advance(ms: number): void;
  /** Seconds the clock has moved for the current participant. */
  elapsedSeconds(): number;
}

export interface StepTime {
  step: string;
  minimumSeconds: number;
  simulatedSeconds: number;
}

export interface WalkResult {
  pathway: string | null;
  condition: string | null;
  lastStep: string;
  stopped: { reason: 'left' | 'refused' | 'stuck'; detail: string } | null;
  steps: StepTime[];
  chat: { rounds: number; ruleReached: boolean; closed: string | null } | null;
}

export interface Walker {
  app: FastifyInstance;
  clock: PilotClock;
  experimentId: string;
  userId: string;
  headers: { authorization: string };
  persona: PilotPersona;
  random: () => number;
}

class Refused extends Error {
  constructor(
    readonly step: string,
    readonly res: LightMyRequestResponse,
  ) {
    super(`${res.statusCode}`);
  }
  detail(): string {
    try {
      const body = this.res.json<{ error?: string; code?: string }>();
      return `${this.res.statusCode} ${body.code ?? ''}: ${body.error ?? this.res.body.slice(0, 200)}`;
    } catch {
      return `${this.res.statusCode}: ${this.res.body.slice(0, 200)}`;
    }
  }
}

async function call(w: Walker, step: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await w.app.inject({
    method,
    url,
    headers: w.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  if (res.statusCode >= 300) throw new Refused(step, res);
  // A chat stream answers 200 and carries a failure as an error event.
  if (res.headers['content-type']?.toString().startsWith('text/event-stream') && res.body.includes('"error"')) {
    throw new Refused(step, res);
  }
  return res;
}

/** Times a step: its enforced minimum beside the seconds the pilot clock moved while it was done. */
async function timed<T>(w: Walker, steps: StepTime[], step: string, minimumSeconds: number, run: () => Promise<T>) {
  const before = w.clock.elapsedSeconds();
  const result = await run();
  steps.push({ step, minimumSeconds, simulatedSeconds: w.clock.elapsedSeconds() - before });
  return result;
}

/** When a leaver leaves: after this many steps (null: the persona stays to the end). */
function leaveAfter(w: Walker, expectedSteps: number): number | null {
  if (w.random() >= w.persona.leaveTendency) return null;
  return 1 + Math.floor(w.random() * Math.max(1, expectedSteps - 1));
}

async function startChat(w: Walker, step: string): Promise<string> {
  const { experimentId } = w;
  const { threadId } = (await call(w, step, 'POST', '/api/chat/initiate', { experimentId })).json<{
    threadId: string;
  }>();
  await call(w, step, 'GET', `/api/chat/threads/${threadId}/initial-message`);
  return threadId;
}

async function sendRound(w: Walker, step: string, threadId: string): Promise<void> {
  const message = chatMessage(w.persona, w.random);
  await call(w, step, 'POST', `/api/chat/threads/${threadId}/messages`, { message });
  w.clock.advance(roundSeconds(w.persona, w.random, message) * 1000);
}

/** Walks a study in the built-in shape (the spec's routes), step by step as the journey read names them. */
export async function walkBuiltIn(w: Walker, study: StudyDefinition): Promise<WalkResult> {
  const { experimentId } = w;
  const steps: StepTime[] = [];
  const result: WalkResult = { pathway: null, condition: null, lastStep: 'consent', stopped: null, steps, chat: null };
  const journey = async (step: string) =>
    (await call(w, step, 'GET', `/api/participants/journey/${experimentId}`)).json<Journey>();
  const survey = (step: string, surveyType: string, responses: Record<string, unknown>) =>
    call(w, step, 'POST', '/api/surveys', {
      user_id: w.userId,
      experiment_id: experimentId,
      survey_type: surveyType,
      responses,
    });
  const leaveAt = leaveAfter(w, 9);
  try {
    let j = await journey('consent');
    for (let done = 0; done < MAX_ACTIONS; done++) {
      result.lastStep = j.step;
      result.condition = j.condition;
      if (j.step === 'completed') {
        result.pathway = j.pathway;
        return result;
      }
      if (leaveAt !== null && done >= leaveAt) {
        result.stopped = { reason: 'left', detail: `the persona left at ${j.step}` };
        return result;
      }
      const step = j.step;
      const read = () => w.clock.advance(readingSeconds(w.persona, w.random) * 1000);
      switch (step) {
        case 'consent':
          await timed(w, steps, step, 0, async () => {
            read();
            await call(w, step, 'POST', '/api/participants/consent', { experimentId });
          });
          break;
        case 'entry': {
          // A favourable persona sometimes has no concerns and leaves by the entry's exit.
          const exit = w.persona.stance === 'favourable' && w.random() < 0.3;
          await timed(w, steps, step, 0, async () => {
            read();
            const value = exit ? study.entry.values.exit : study.entry.values.continue;
            await survey(step, 'entry', { [study.entry.key]: value });
          });
          break;
        }
        case 'baseline':
          await timed(w, steps, step, 0, async () => {
            read();
            await survey(step, 'baseline', { [study.baseline.key]: String(scalePoint(w.persona, w.random, 7)) });
          });
          break;
        case 'pre_survey':
          await timed(w, steps, step, 0, async () => {
            const answers = Object.fromEntries(
              study.pre.questions.map((q) => {
                w.clock.advance((5 + Math.round(w.random() * 10)) * 1000);
                if (q.type === 'scale') return [q.key, String(scalePoint(w.persona, w.random, 7))];
                const options = q.options ?? [];
                const own = options.find((o) => o.value === w.persona.ageGroup);
                return [q.key, (own ?? options[Math.floor(w.random() * options.length)])?.value];
              }),
            );
            await survey(step, 'pre', answers);
          });
          break;
        case 'assignment':
          await timed(w, steps, step, 0, () =>
            call(w, step, 'POST', '/api/participants/assign-condition', { experimentId }),
          );
          break;
        case 'sections': {
          const condition = j.condition ?? '';
          const sections = study.conditions[condition]?.sections ?? [];
          const minimum = sections.reduce((n, s) => n + sectionMinSeconds(s), 0);
          await timed(w, steps, step, minimum, async () => {
            for (const [sectionIndex, section] of sections.entries()) {
              const opened = j.sections[sectionIndex]?.finishedAt;
              if (opened) continue;
              await call(w, step, 'POST', '/api/participants/sections/open', { experimentId, sectionIndex });
              const seconds = sectionMinSeconds(section) + readingSeconds(w.persona, w.random);
              w.clock.advance(seconds * 1000);
              const finish = { experimentId, sectionIndex, visibleSeconds: seconds, hiddenSeconds: 0 };
              await call(w, step, 'POST', '/api/participants/sections/finish', finish);
            }
          });
          break;
        }
        case 'chat': {
          const chat = { rounds: 0, ruleReached: false, closed: null as string | null };
          result.chat = chat;
          await timed(w, steps, step, 0, async () => {
            const threadId = j.chat.threadId ?? (await startChat(w, step));
            for (; chat.rounds < PILOT_MAX_ROUNDS;) {
              await sendRound(w, step, threadId);
              chat.rounds += 1;
              const now = await journey(step);
              chat.closed = now.chat.closed;
              chat.ruleReached = now.chat.complete;
              if (now.step !== 'chat') return;
            }
          });
          if (!chat.ruleReached && chat.closed === null) {
            result.stopped = {
              reason: 'stuck',
              detail: `the chat did not reach its rule in ${PILOT_MAX_ROUNDS} rounds`,
            };
            return result;
          }
          break;
        }
        case 'post_survey':
          await timed(w, steps, step, 0, async () => {
            read();
            await survey(step, 'post', { [study.post.key]: scalePoint(w.persona, w.random, 7) });
          });
          break;
        case 'confirm_exit':
        case 'ceiling_exit':
        case 'completion': {
          const pathway = step === 'completion' ? 'complete' : step === 'confirm_exit' ? 'confirm' : 'ceiling';
          await timed(w, steps, step, 0, () =>
            call(w, step, 'POST', '/api/participants/completion', { experimentId, pathway }),
          );
          break;
        }
      }
      j = await journey(step);
    }
    result.stopped = { reason: 'stuck', detail: `the walk did not end within ${MAX_ACTIONS} steps` };
    return result;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    result.lastStep = error.step;
    result.stopped = { reason: 'refused', detail: error.detail() };
    return result;
  }
}

/** Walks a study written as a flow (its one read and one write per step). */
export async function walkFlow(w: Walker): Promise<WalkResult> {
  const base = `/api/participants/flow/${w.experimentId}`;
  const steps: StepTime[] = [];
  const result: WalkResult = { pathway: null, condition: null, lastStep: '', stopped: null, steps, chat: null };
  try {
    let view = (await call(w, 'start', 'GET', base)).json<FlowView>();
    const leaveAt = leaveAfter(w, view.total);
    for (let done = 0; done < MAX_ACTIONS; done++) {
      const { step } = view;
      result.lastStep = step.id;
      result.condition = view.condition;
      if (view.completed) {
        result.pathway = view.pathway;
        return result;
      }
      if (leaveAt !== null && done >= leaveAt && step.type !== 'end') {
        result.stopped = { reason: 'left', detail: `the persona left at ${step.id}` };
        return result;
      }
      const post = (body: unknown) => call(w, step.id, 'POST', `${base}/steps/${step.id}`, body);
      switch (step.type) {
        case 'page':
          view = await timed(w, steps, step.id, step.remainingSeconds, async () => {
            w.clock.advance((step.remainingSeconds + readingSeconds(w.persona, w.random)) * 1000);
            return (await post({})).json<FlowView>();
          });
          break;
        case 'questions':
          view = await timed(w, steps, step.id, 0, async () => {
            const answers = Object.fromEntries(
              step.questions.map((q) => {
                w.clock.advance((5 + Math.round(w.random() * 10)) * 1000);
                return [q.key, flowAnswer(w.persona, w.random, q)];
              }),
            );
            return (await post({ answers })).json<FlowView>();
          });
          break;
        case 'ai_text':
          view = await timed(w, steps, step.id, 0, async () => {
            await call(w, step.id, 'POST', `${base}/steps/${step.id}/generate`);
            w.clock.advance((20 + readingSeconds(w.persona, w.random)) * 1000);
            // A sceptic sometimes corrects the text where the step allows it.
            const correct = step.allowCorrection && w.persona.stance === 'sceptic' && w.random() < 0.5;
            const text = correct ? textAnswer(w.persona, w.random, 20, step.maxChars) : undefined;
            return (await post(text === undefined ? {} : { text })).json<FlowView>();
          });
          break;
        case 'randomise':
        case 'end':
          view = await timed(w, steps, step.id, 0, async () => (await post({})).json<FlowView>());
          break;
        case 'reading': {
          // One section at a time, each after its minimum on the pilot clock and the persona's reading.
          const { section } = step;
          view = await timed(
            w,
            steps,
            `${step.id} (section ${section.index + 1})`,
            section.remainingSeconds,
            async () => {
              w.clock.advance((section.remainingSeconds + readingSeconds(w.persona, w.random)) * 1000);
              const body = { section: section.index, visibleSeconds: section.remainingSeconds, hiddenSeconds: 0 };
              return (await post(body)).json<FlowView>();
            },
          );
          break;
        }
        case 'chat': {
          const chat = { rounds: 0, ruleReached: false, closed: null as string | null };
          result.chat = chat;
          const minimum = (step.completion.minMinutes ?? 0) * 60;
          view = await timed(w, steps, step.id, minimum, async () => {
            const threadId = step.threadId ?? (await startChat(w, step.id));
            let now = view;
            while (now.step.id === step.id && chat.rounds < PILOT_MAX_ROUNDS) {
              await sendRound(w, step.id, threadId);
              chat.rounds += 1;
              now = (await call(w, step.id, 'GET', base)).json<FlowView>();
              const left = now.step.type === 'chat' ? now.step.minSecondsLeft : null;
              // The rounds are done but the least minutes are not: the persona waits for Proceed.
              if (now.step.id === step.id && left !== null && left > 0 && chat.rounds >= step.completion.rounds) {
                w.clock.advance(left * 1000);
                now = (await call(w, step.id, 'GET', base)).json<FlowView>();
              }
            }
            chat.ruleReached = now.step.id !== step.id;
            return now;
          });
          if (!chat.ruleReached) {
            result.stopped = {
              reason: 'stuck',
              detail: `the chat did not reach its rule in ${PILOT_MAX_ROUNDS} rounds`,
            };
            return result;
          }
          break;
        }
      }
    }
    result.stopped = { reason: 'stuck', detail: `the walk did not end within ${MAX_ACTIONS} steps` };
    return result;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    result.lastStep = error.step;
    result.stopped = { reason: 'refused', detail: error.detail() };
    return result;
  }
}
