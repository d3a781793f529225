import type { ChatStreamProgress } from '@studychat/contracts';
import { studyDefinition, type Condition } from '@studychat/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ChatModel, ChatReplyInfo, ChatRequest, LlmProvider } from '../src/llm/chat-model.js';
import { createStudyScriptedModel } from '../src/llm/create-chat-model.js';
import { createAndLogin, expectJson, type TestApp, type TestUser } from './app.js';
import { at, buildAssignment, buildExperiment, readyForChatRows, type NewExperimentRow } from './factories.js';

type Behaviour = (request: ChatRequest, onText: (delta: string) => void) => Promise<ChatReplyInfo>;

/** A chat model whose behaviour each test sets; it records every request it gets. */
export class SwitchableModel implements ChatModel {
  readonly provider = 'scripted' as const;
  readonly model = 'switchable';
  readonly scripted = createStudyScriptedModel();
  behaviour: Behaviour = (request, onText) => this.scripted.streamReply(request, onText);
  calls: ChatRequest[] = [];
  streamReply(request: ChatRequest, onText: (delta: string) => void): Promise<ChatReplyInfo> {
    this.calls.push(request);
    return this.behaviour(request, onText);
  }
  maxOutputTokens(request: ChatRequest): number {
    return request.maxTokens ?? 1024;
  }
  reset(): void {
    this.behaviour = (request, onText) => this.scripted.streamReply(request, onText);
    this.calls = [];
  }
}

/** A provider's model stand-in: records its calls and answers from the study's script as the model asked for. */
export class ProviderModel implements ChatModel {
  readonly scripted = createStudyScriptedModel();
  calls: ChatRequest[] = [];
  constructor(
    readonly provider: LlmProvider,
    readonly model: string,
  ) {}
  async streamReply(request: ChatRequest, onText: (delta: string) => void): Promise<ChatReplyInfo> {
    this.calls.push(request);
    const info = await this.scripted.streamReply(request, onText);
    return { ...info, model: request.model ?? this.model };
  }
  maxOutputTokens(request: ChatRequest): number {
    return request.maxTokens ?? 1024;
  }
}

/** A promise the test resolves by hand, so "while streaming" is a state, not a race. */
export function gate() {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

export const REAL_INFO: ChatReplyInfo = {
  model: 'claude-sonnet-4-5-20250929',
  inputTokens: 1200,
  outputTokens: 300,
  stopReason: 'end_turn',
  thinking: [{ type: 'thinking', thinking: 'The parent asks about safety.' }, { type: 'redacted_thinking' }],
};

/** Every `data:` payload of an event-stream body, in order. */
export function allEvents(res: LightMyRequestResponse | string): string[] {
  const body = typeof res === 'string' ? res : res.body;
  expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
  return body
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return block.slice('data: '.length);
    });
}

/** The spec's events of a chat stream (text, error, [DONE]), in order: the progress event before [DONE] left out. */
export function events(res: LightMyRequestResponse | string): string[] {
  return allEvents(res).filter((data) => !data.startsWith('{"progress":'));
}

/** The progress event a stored reply ends its stream with (contracts' chat-stream.ts), or undefined. */
export function progressEvent(res: LightMyRequestResponse | string): ChatStreamProgress | undefined {
  const data = allEvents(res).find((d) => d.startsWith('{"progress":'));
  return data === undefined ? undefined : (JSON.parse(data) as ChatStreamProgress);
}

export function streamedText(res: LightMyRequestResponse): string {
  return events(res)
    .filter((e) => e !== '[DONE]')
    .map((e) => (JSON.parse(e) as { text?: string }).text ?? '')
    .join('');
}

export function streamedError(res: LightMyRequestResponse): string | undefined {
  return events(res)
    .filter((e) => e !== '[DONE]')
    .map((e) => (JSON.parse(e) as { error?: string }).error)
    .find((e) => e !== undefined);
}

/** The chat's routes for one test app, and participants set up to use them. */
export function chatClient(t: () => TestApp) {
  /**
   * The participant's records, as the journey reads them: with a condition, at the chat step (consented,
   * surveys answered, every section read in time); without one, just joined.
   */
  async function atChatStep(userId: string, experimentId: string, condition: Condition | null): Promise<void> {
    const { db } = t().database;
    const assignment = buildAssignment(
      { userId, experimentId },
      { assigned_condition: condition, consent_given: condition !== null, consent_timestamp: condition && at(1) },
    );
    await db.insertInto('assignments').values(assignment).execute();
    if (!condition) return;
    const minimums = (studyDefinition.conditions[condition]?.sections ?? []).map((s) => s.minSeconds);
    const rows = readyForChatRows(assignment, condition, minimums);
    await db.insertInto('survey_responses').values(rows.surveys).execute();
    await db.insertInto('section_views').values(rows.views).execute();
  }

  async function participant(
    condition: Condition | null = 'mmr',
    experimentOverrides: Partial<NewExperimentRow> = {},
  ): Promise<{ user: TestUser; experimentId: string }> {
    const user = await createAndLogin(t());
    const experiment = buildExperiment(experimentOverrides);
    await t().database.db.insertInto('experiments').values(experiment).execute();
    await atChatStep(user.id, String(experiment.id), condition);
    return { user, experimentId: String(experiment.id) };
  }

  /** Another participant in an existing experiment. */
  async function joinExperiment(experimentId: string, condition: Condition = 'mmr') {
    const user = await createAndLogin(t());
    await atChatStep(user.id, experimentId, condition);
    const { threadId } = expectJson<{ threadId: string }>(await initiate(user, experimentId), 200);
    return { user, experimentId, threadId };
  }

  const initiate = (user: TestUser, experimentId: string) =>
    t().app.inject({ method: 'POST', url: '/api/chat/initiate', headers: user.headers, payload: { experimentId } });

  async function startThread(condition: Condition = 'mmr', experimentOverrides: Partial<NewExperimentRow> = {}) {
    const p = await participant(condition, experimentOverrides);
    const { threadId } = expectJson<{ threadId: string }>(await initiate(p.user, p.experimentId), 200);
    return { ...p, threadId };
  }

  const send = (user: TestUser, threadId: string, message: string) =>
    t().app.inject({
      method: 'POST',
      url: `/api/chat/threads/${threadId}/messages`,
      headers: user.headers,
      payload: { message },
    });
  const initial = (user: TestUser, threadId: string) =>
    t().app.inject({ method: 'GET', url: `/api/chat/threads/${threadId}/initial-message`, headers: user.headers });
  const messages = (user: TestUser, threadId: string) =>
    t().app.inject({ method: 'GET', url: `/api/chat/threads/${threadId}/messages`, headers: user.headers });

  const storedMessages = (threadId: string) =>
    t()
      .database.db.selectFrom('chat_messages')
      .selectAll()
      .where('thread_id', '=', threadId)
      .orderBy('position')
      .execute();
  const storedThread = (threadId: string) =>
    t().database.db.selectFrom('chat_threads').selectAll().where('id', '=', threadId).executeTakeFirstOrThrow();

  return { participant, joinExperiment, initiate, startThread, send, initial, messages, storedMessages, storedThread };
}
