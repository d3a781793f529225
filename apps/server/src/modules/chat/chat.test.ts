import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHAT_MESSAGE_MAX_LENGTH, studyDefinition, type ThreadMessagesReply } from '@studychat/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestApp } from '../../../test/app.js';
import {
  allEvents,
  chatClient,
  events,
  gate,
  progressEvent,
  REAL_INFO,
  streamedText,
  SwitchableModel,
} from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { toBool, toNumberOrNull } from '../../db/values.js';
import { ChatModelError } from '../../llm/errors.js';
import { MODEL_ERRORS } from './chat.service.js';

describe.each(TEST_DIALECTS)('chat routes on %s', (dialect) => {
  const model = new SwitchableModel();
  const t = useTestApp(dialect, { deps: { llm: model } });

  beforeEach(() => model.reset());

  const { participant, initiate, startThread, send, initial, messages, storedMessages } = chatClient(t);

  describe('initiate', () => {
    it('creates one thread per participant and experiment, and returns it again', async () => {
      const p = await participant('control');
      const first = expectJson<{ threadId: string; progress: unknown }>(await initiate(p.user, p.experimentId), 200);
      const again = expectJson<{ threadId: string }>(await initiate(p.user, p.experimentId), 200);
      expect(again.threadId).toBe(first.threadId);
      expect(first.progress).toEqual({ rounds: 0, chars: 0, points: 0, complete: false, closed: null });
      const threads = await t()
        .database.db.selectFrom('chat_threads')
        .selectAll()
        .where('user_id', '=', p.user.id)
        .execute();
      expect(threads).toHaveLength(1);
      expect(threads[0]?.condition).toBe('control');
    });

    it('refuses a participant before the chat step (409), without an assignment, and an admin who is not a participant (404)', async () => {
      const unassigned = await participant(null);
      const res = await initiate(unassigned.user, unassigned.experimentId);
      expect(expectJson(res, 409)).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step: 'consent' });

      const stranger = await createAndLogin(t());
      expect((await initiate(stranger, unassigned.experimentId)).statusCode).toBe(404);

      const admin = await createAndLogin(t(), { isAdmin: true });
      expect((await initiate(admin, unassigned.experimentId)).statusCode).toBe(404);
      const threads = await t()
        .database.db.selectFrom('chat_threads')
        .select('id')
        .where('user_id', 'in', [unassigned.user.id, stranger.id, admin.id])
        .execute();
      expect(threads).toEqual([]);
    });

    it('needs a token and a valid experiment id', async () => {
      const p = await participant();
      const anonymous = await t().app.inject({
        method: 'POST',
        url: '/api/chat/initiate',
        payload: { experimentId: p.experimentId },
      });
      expect(anonymous.statusCode).toBe(401);
      const malformed = await t().app.inject({
        method: 'POST',
        url: '/api/chat/initiate',
        headers: p.user.headers,
        payload: { experimentId: 'not-a-uuid' },
      });
      expect(expectJson<{ code: string }>(malformed, 400).code).toBe('VALIDATION_FAILED');
    });
  });

  describe('initial message', () => {
    it('streams the greeting as data lines ending with [DONE], with event-stream headers', async () => {
      const { user, threadId } = await startThread('mmr');
      const res = await initial(user, threadId);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-accel-buffering']).toBe('no');
      const opening = studyDefinition.chat.conditions.mmr.scripted.opening;
      const words = opening.match(/\s*\S+/g) ?? [];
      expect(events(res)).toEqual([...words.map((w) => JSON.stringify({ text: w })), '[DONE]']);
    });

    it('is generated once, stored, and replayed on later requests', async () => {
      const { user, threadId } = await startThread('control');
      const first = await initial(user, threadId);
      const second = await initial(user, threadId);
      expect(model.calls).toHaveLength(1);
      expect(model.calls[0]).toMatchObject({ history: [], condition: 'control' });
      expect(model.calls[0]?.system).toBe(studyDefinition.chat.conditions.control.systemPrompt);
      expect(streamedText(second)).toBe(streamedText(first));
      const rows = await storedMessages(threadId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        role: 'assistant',
        position: 0,
        status: 'complete',
        model_used: 'scripted-offline',
      });
      expect(toBool(rows[0]?.is_initial ?? false)).toBe(true);
      expect(rows[0]?.content).toBe(studyDefinition.chat.conditions.control.scripted.opening);
    });

    it('makes a second request during generation wait for the first and replay it', async () => {
      const { user, threadId } = await startThread();
      const started = gate();
      const release = gate();
      model.behaviour = async (_request, onText) => {
        onText('Hello ');
        started.open();
        await release.opened;
        onText('there.');
        return REAL_INFO;
      };
      const first = initial(user, threadId);
      await started.opened;
      const second = initial(user, threadId);
      release.open();
      const [a, b] = await Promise.all([first, second]);
      expect(streamedText(a)).toBe('Hello there.');
      expect(streamedText(b)).toBe('Hello there.');
      expect(model.calls).toHaveLength(1);
      expect(await storedMessages(threadId)).toHaveLength(1);
    });

    it('sends an error event when the greeting fails before any text, keeps the attempt only for the record, and generates it again', async () => {
      const { user, threadId } = await startThread();
      model.behaviour = async () => {
        throw new ChatModelError('unavailable', 'Provider error 503');
      };
      const res = await initial(user, threadId);
      expect(events(res)).toEqual([JSON.stringify({ error: MODEL_ERRORS.initial }), '[DONE]']);
      expect((await storedMessages(threadId)).map((r) => [r.status, r.content, r.error_message])).toEqual([
        ['error', '', 'Provider error 503'],
      ]);
      expect(expectJson<{ messages: unknown[] }>(await messages(user, threadId), 200).messages).toEqual([]);
      model.behaviour = (request, onText) => model.scripted.streamReply(request, onText);
      expect(streamedText(await initial(user, threadId))).toBe(studyDefinition.chat.conditions.mmr.scripted.opening);
      expect((await storedMessages(threadId)).map((r) => r.status)).toEqual(['error', 'complete']);
    });
  });

  describe('sending a message', () => {
    it('stores the participant message, streams the reply and stores it with every measurement', async () => {
      const { user, threadId } = await startThread();
      await initial(user, threadId);
      model.behaviour = async (_request, onText) => {
        onText('It is ');
        onText('very safe.');
        return REAL_INFO;
      };
      const res = await send(user, threadId, '  Is it safe?  ');
      expect(events(res)).toEqual([
        JSON.stringify({ text: 'It is ' }),
        JSON.stringify({ text: 'very safe.' }),
        '[DONE]',
      ]);
      // Before [DONE], where the reply left the chat: the page needs no read after it.
      const thread = expectJson<ThreadMessagesReply>(
        await t().app.inject({ method: 'GET', url: `/api/chat/threads/${threadId}/messages`, headers: user.headers }),
        200,
      );
      expect(allEvents(res).at(-2)).toMatch(/^\{"progress":/);
      expect(progressEvent(res)).toEqual({ progress: thread.progress, limits: thread.limits });
      expect(thread.progress).toMatchObject({ rounds: 1, complete: false, closed: null });

      const rows = await storedMessages(threadId);
      expect(rows.map((r) => [r.position, r.role, r.content, r.status])).toEqual([
        [0, 'assistant', studyDefinition.chat.conditions.mmr.scripted.opening, 'complete'],
        [1, 'user', '  Is it safe?  ', 'complete'],
        [2, 'assistant', 'It is very safe.', 'complete'],
      ]);
      const reply = rows[2];
      expect(reply).toMatchObject({
        model_used: 'claude-sonnet-4-5-20250929',
        input_tokens: 1200,
        output_tokens: 300,
        stop_reason: 'end_turn',
        error_message: null,
        thinking_log: '[{"type":"thinking","thinking":"The parent asks about safety."},{"type":"redacted_thinking"}]',
      });
      // claude-sonnet-4-5 costs $3 / $15 per million tokens.
      expect(toNumberOrNull(reply?.cost_usd)).toBeCloseTo(0.0081, 6);
      expect(reply?.first_token_ms).toBeGreaterThanOrEqual(0);
      expect(reply?.total_ms).toBeGreaterThanOrEqual(reply?.first_token_ms ?? 0);
      expect(toBool(reply?.is_initial ?? true)).toBe(false);

      // The model saw the stored thread: greeting, then the participant's message.
      expect(model.calls.at(-1)?.history).toEqual([
        { role: 'assistant', content: studyDefinition.chat.conditions.mmr.scripted.opening },
        { role: 'user', content: '  Is it safe?  ' },
      ]);
    });

    it('returns the messages and the server-side progress, also from initiate', async () => {
      const { user, threadId, experimentId } = await startThread();
      await initial(user, threadId);
      const texts = ['Is the MMR vaccine safe for my daughter?', 'What about fever after the shot?', 'Thanks!'];
      for (const text of texts) await send(user, threadId, text);
      const reply = expectJson<{ threadId: string; messages: { role: string; content: string }[]; progress: unknown }>(
        await messages(user, threadId),
        200,
      );
      expect(reply.threadId).toBe(threadId);
      expect(reply.messages.map((m) => m.role)).toEqual([
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
      ]);
      expect(reply.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(texts);
      const chars = texts.reduce((sum, m) => sum + m.trim().length, 0);
      const expected = { rounds: 3, chars, points: 30 + chars * 0.5, complete: 30 + chars * 0.5 >= 100, closed: null };
      expect(reply.progress).toEqual(expected);
      expect(expectJson<{ progress: unknown }>(await initiate(user, experimentId), 200).progress).toEqual(expected);
    });

    it('refuses a second message while a reply is streaming (409), then accepts the next one', async () => {
      const { user, threadId } = await startThread();
      const started = gate();
      const release = gate();
      model.behaviour = async (_request, onText) => {
        onText('Thinking about it');
        started.open();
        await release.opened;
        return REAL_INFO;
      };
      const first = send(user, threadId, 'First question');
      await started.opened;
      const second = await send(user, threadId, 'Second question');
      expect(expectJson<{ code: string }>(second, 409).code).toBe('REPLY_IN_PROGRESS');
      release.open();
      expect(streamedText(await first)).toBe('Thinking about it');

      model.behaviour = (request, onText) => model.scripted.streamReply(request, onText);
      expect((await send(user, threadId, 'Third question')).statusCode).toBe(200);
      const rows = await storedMessages(threadId);
      expect(rows.filter((r) => r.role === 'user').map((r) => r.content)).toEqual(['First question', 'Third question']);
    });

    it('lets a thread go once a crashed process’s lease has expired', async () => {
      const { user, threadId } = await startThread();
      const now = t().clock.now;
      await t()
        .database.db.updateTable('chat_threads')
        .set({ reply_lock_id: 'crashed', reply_lock_until: new Date(now.getTime() + 60_000).toISOString() })
        .where('id', '=', threadId)
        .execute();
      expect((await send(user, threadId, 'Hello?')).statusCode).toBe(409);
      t().clock.advance(61_000);
      expect((await send(user, threadId, 'Hello?')).statusCode).toBe(200);
      const thread = await t()
        .database.db.selectFrom('chat_threads')
        .selectAll()
        .where('id', '=', threadId)
        .executeTakeFirst();
      expect(thread?.reply_lock_id).toBeNull();
    });

    it('sends a friendly error then [DONE] when the model fails before any text; the message stays and sending again works', async () => {
      const { user, threadId } = await startThread();
      await initial(user, threadId);
      model.behaviour = async () => {
        // A 429 or 529 is waited out (provider-queue.test.ts); any other failure before text ends the reply.
        throw new ChatModelError('unavailable', 'Provider error 503: slow down', { status: 503 });
      };
      const failed = await send(user, threadId, 'My question');
      expect(events(failed)).toEqual([JSON.stringify({ error: MODEL_ERRORS.unavailable }), '[DONE]']);
      let rows = await storedMessages(threadId);
      expect(rows.map((r) => [r.role, r.content, r.status])).toEqual([
        ['assistant', studyDefinition.chat.conditions.mmr.scripted.opening, 'complete'],
        ['user', 'My question', 'complete'],
        ['assistant', '', 'error'],
      ]);
      expect(rows[2]?.input_tokens).toBeNull();
      expect(rows[2]?.error_message).toBe('Provider error 503: slow down');
      const shown = expectJson<{ messages: unknown[]; progress: { rounds: number } }>(
        await messages(user, threadId),
        200,
      );
      expect(shown.messages).toHaveLength(2);
      expect(shown.progress.rounds).toBe(0);

      model.behaviour = async (_request, onText) => {
        onText('Answer.');
        return REAL_INFO;
      };
      expect(streamedText(await send(user, threadId, 'My question'))).toBe('Answer.');
      // The failed, empty reply is not part of what the model sees, and the message sent again counts once.
      expect(model.calls.at(-1)?.history).toEqual([
        { role: 'assistant', content: studyDefinition.chat.conditions.mmr.scripted.opening },
        { role: 'user', content: 'My question' },
      ]);
      rows = await storedMessages(threadId);
      expect(rows.at(-1)).toMatchObject({ content: 'Answer.', status: 'complete' });
      // The message sent twice counts once, as the chat page counts it.
      const after = expectJson<{ progress: unknown }>(await messages(user, threadId), 200);
      expect(after.progress).toEqual({ rounds: 1, chars: 11, points: 15.5, complete: false, closed: null });
    });

    it('keeps the partial text with status error when the model fails after the first token, its output estimated', async () => {
      const { user, threadId } = await startThread();
      model.behaviour = async (_request, onText) => {
        onText('Partial ');
        const error = new ChatModelError('connection', 'Connection to the provider failed: terminated', {
          partial: { model: REAL_INFO.model, inputTokens: 1200 },
        });
        error.afterFirstToken = true;
        throw error;
      };
      const res = await send(user, threadId, 'Tell me more');
      expect(events(res)).toEqual([
        JSON.stringify({ text: 'Partial ' }),
        JSON.stringify({ error: MODEL_ERRORS.interrupted }),
        '[DONE]',
      ]);
      const rows = await storedMessages(threadId);
      expect(rows.at(-1)).toMatchObject({
        role: 'assistant',
        content: 'Partial ',
        status: 'error',
        model_used: REAL_INFO.model,
        input_tokens: 1200,
        // The provider reported no output before the cut: estimated from the text (history.ts: 8 / 3 + 4),
        // flagged, and priced (claude-sonnet-4-5: $3 in, $15 out per million tokens).
        output_tokens: 7,
        error_message: 'Connection to the provider failed: terminated',
      });
      expect(Boolean(rows.at(-1)?.usage_estimated)).toBe(true);
      expect(Number(rows.at(-1)?.cost_usd)).toBeCloseTo((1200 * 3 + 7 * 15) / 1e6, 12);
    });

    it('rejects empty and whitespace-only messages, and absurdly long bodies, without storing anything', async () => {
      const { user, threadId } = await startThread();
      for (const message of ['', '   \n\t ', 'x'.repeat(CHAT_MESSAGE_MAX_LENGTH + 1)]) {
        const res = await send(user, threadId, message);
        const body = expectJson<{ code: string; error: string }>(res, 400);
        expect(body.code).toBe('VALIDATION_FAILED');
      }
      expect((await storedMessages(threadId)).filter((r) => r.role === 'user')).toHaveLength(0);
    });
  });

  describe('authorisation', () => {
    it('hides a thread from another participant, an admin and anonymous callers', async () => {
      const owner = await startThread();
      await initial(owner.user, owner.threadId);
      const other = await startThread();
      const admin = await createAndLogin(t(), { isAdmin: true });
      for (const caller of [other.user, admin]) {
        expect(expectJson<{ code: string }>(await initial(caller, owner.threadId), 404).code).toBe('NOT_FOUND');
        expect((await send(caller, owner.threadId, 'hello')).statusCode).toBe(404);
        expect((await messages(caller, owner.threadId)).statusCode).toBe(404);
      }
      for (const [method, suffix] of [
        ['GET', 'initial-message'],
        ['POST', 'messages'],
        ['GET', 'messages'],
      ] as const) {
        const res = await t().app.inject({
          method,
          url: `/api/chat/threads/${owner.threadId}/${suffix}`,
          ...(method === 'POST' ? { payload: { message: 'hi' } } : {}),
        });
        expect(res.statusCode).toBe(401);
      }
      expect(await storedMessages(owner.threadId)).toHaveLength(1);
    });

    it('answers 404 for an unknown thread and 400 for a malformed id', async () => {
      const { user } = await startThread();
      expect((await messages(user, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect(expectJson<{ code: string }>(await messages(user, 'nope'), 400).code).toBe('VALIDATION_FAILED');
      expect((await send(user, 'nope', 'hi')).statusCode).toBe(400);
    });
  });

  describe('with a real connection', () => {
    it('stores the whole reply even when the browser disconnects mid-stream', async () => {
      const app = await listening(t());
      const { user, threadId } = await startThread();
      const release = gate();
      model.behaviour = async (_request, onText) => {
        onText('First part, ');
        await release.opened;
        onText('second part.');
        return REAL_INFO;
      };
      await new Promise<void>((resolve) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: app.port,
            method: 'POST',
            path: `/api/chat/threads/${threadId}/messages`,
            headers: { ...user.headers, 'content-type': 'application/json' },
          },
          (res) => {
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          },
        );
        req.on('error', () => undefined);
        req.on('close', () => resolve());
        req.end(JSON.stringify({ message: 'Question' }));
      });
      release.open();
      await vi.waitFor(async () => {
        const rows = await storedMessages(threadId);
        expect(rows.at(-1)).toMatchObject({
          role: 'assistant',
          content: 'First part, second part.',
          status: 'complete',
        });
      });
      const thread = await t()
        .database.db.selectFrom('chat_threads')
        .selectAll()
        .where('id', '=', threadId)
        .executeTakeFirst();
      expect(thread?.reply_lock_id).toBeNull();
    });
  });
});

/** Starts the test app on a real port (once per app) for tests that need a real socket. */
async function listening(testApp: TestApp): Promise<{ port: number }> {
  const address = testApp.app.server.address() as AddressInfo | null;
  if (address) return { port: address.port };
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (testApp.app.server.address() as AddressInfo).port };
}
