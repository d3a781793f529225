import type { AdminMessage, ThreadMessagesReply } from '@studychat/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { chatClient, gate, REAL_INFO, streamedText, SwitchableModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { INTERRUPTED_REASON } from './chat.service.js';

// A server that dies mid-reply, and a participant who leaves right after Send: on both databases,
// with the injected clock (no sleeping).
describe.each(TEST_DIALECTS)('chat recovery on %s', (dialect) => {
  const model = new SwitchableModel();
  const t = useTestApp(dialect, { deps: { llm: model } });
  const chat = chatClient(t);
  beforeEach(() => model.reset());

  const shown = async (user: TestUser, threadId: string) =>
    expectJson<ThreadMessagesReply>(await chat.messages(user, threadId), 200);
  const adminView = async (userId: string, threadId: string) => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    return expectJson<AdminMessage[]>(
      await t().app.inject({
        method: 'GET',
        url: `/api/admin/users/${userId}/threads/${threadId}/messages`,
        headers: admin.headers,
      }),
      200,
    );
  };

  /**
   * The process saves the text a moment after the token that triggers it (partial-saver.ts, in a later turn of
   * the event loop, after any save before it): reads the row until that save has landed, a bounded number of
   * times, letting the loop turn between reads (no clock, no sleeping).
   */
  async function savedText(threadId: string, expected: string): Promise<void> {
    for (let read = 0; read < 200; read++) {
      if ((await chat.storedMessages(threadId)).at(-1)?.content === expected) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** A reply that streams 'One ', then (a second later) 'two ', then waits for the test. */
  function replyThatHangs() {
    const streaming = gate();
    const release = gate();
    model.behaviour = async (_request, onText) => {
      onText('One ');
      t().clock.advance(1000);
      onText('two ');
      streaming.open();
      await release.opened;
      onText('three.');
      return REAL_INFO;
    };
    return { streaming, release };
  }

  it('saves the text while it streams, and shows a reply being written to a participant who comes back', async () => {
    const { user, threadId } = await chat.startThread();
    await chat.initial(user, threadId);
    const { streaming, release } = replyThatHangs();
    // The participant leaves right after Send: the request goes on without them.
    const sent = chat.send(user, threadId, 'Is it safe?');
    await streaming.opened;
    await savedText(threadId, 'One two ');

    const meanwhile = await shown(user, threadId);
    expect(meanwhile.replying).toBe(true);
    expect(meanwhile.messages.slice(-2).map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Is it safe?', 'complete'],
      ['assistant', 'One two ', 'streaming'],
    ]);

    release.open();
    expect(streamedText(await sent)).toBe('One two three.');
    const after = await shown(user, threadId);
    expect(after.replying).toBe(false);
    expect(after.messages.at(-1)).toMatchObject({ content: 'One two three.', status: 'complete' });
    expect(after.progress.rounds).toBe(1);
  });

  it('notices within one lease (10 s) that the writer died, keeps its text as interrupted, and lets the participant send again', async () => {
    const { user, threadId } = await chat.startThread();
    await chat.initial(user, threadId);
    const { streaming, release } = replyThatHangs();
    const orphan = chat.send(user, threadId, 'Is it safe?');
    await streaming.opened;
    await savedText(threadId, 'One two ');
    // From here on the writer is as good as dead: it never renews its lease or finishes.

    t().clock.advance(5_000);
    expect((await shown(user, threadId)).replying).toBe(true);
    expect(expectJson<{ code: string }>(await chat.send(user, threadId, 'Hello?'), 409).code).toBe('REPLY_IN_PROGRESS');

    t().clock.advance(5_001);
    const seen = await shown(user, threadId);
    expect(seen.replying).toBe(false);
    expect(seen.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'One two ', status: 'interrupted' });
    expect(seen.progress.rounds).toBe(0);
    const forAdmins = (await adminView(user.id, threadId)).at(-1);
    expect(forAdmins).toMatchObject({ status: 'interrupted', content: 'One two ', error_message: INTERRUPTED_REASON });

    model.behaviour = async (_request, onText) => {
      onText('A fresh answer.');
      return REAL_INFO;
    };
    expect(streamedText(await chat.send(user, threadId, 'Is it safe?'))).toBe('A fresh answer.');
    expect((await shown(user, threadId)).progress.rounds).toBe(1);

    // A writer that was only slow, not dead, still stores what it wrote.
    release.open();
    await orphan;
    const rows = await chat.storedMessages(threadId);
    expect(rows.map((r) => [r.role, r.status])).toEqual([
      ['assistant', 'complete'],
      ['user', 'complete'],
      ['assistant', 'complete'],
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(rows[2]?.content).toBe('One two three.');
  });

  it('takes a greeting over from a writer that died, instead of waiting for it', async () => {
    const { user, threadId } = await chat.startThread();
    const { db } = t().database;
    const now = t().clock.now;
    // What a process killed while streaming the greeting leaves behind.
    await db
      .updateTable('chat_threads')
      .set({ reply_lock_id: 'dead-process', reply_lock_until: new Date(now.getTime() + 10_000).toISOString() })
      .where('id', '=', threadId)
      .execute();
    await db
      .insertInto('chat_messages')
      .values({
        id: crypto.randomUUID(),
        thread_id: threadId,
        position: 0,
        role: 'assistant',
        content: 'Hel',
        is_initial: true,
        status: 'streaming',
        created_at: now.toISOString(),
      })
      .execute();
    t().clock.advance(10_001);
    const res = await chat.initial(user, threadId);
    expect(streamedText(res)).toMatch(/^Hi! I'm here to help/);
    const rows = await chat.storedMessages(threadId);
    expect(rows.map((r) => [r.position, r.status, r.content.slice(0, 3)])).toEqual([
      [0, 'interrupted', 'Hel'],
      [1, 'complete', 'Hi!'],
    ]);
    expect((await chat.storedThread(threadId)).reply_lock_id).toBeNull();
  });

  it('titles a thread by condition and start time, then by the first message', async () => {
    const { user, threadId } = await chat.startThread('control');
    expect((await chat.storedThread(threadId)).title).toBe('control chat, started 2026-11-20 10:00 UTC');
    await chat.send(user, threadId, `How long should my  daughter\nstay rear-facing? ${'Really '.repeat(20)}`);
    await chat.send(user, threadId, 'Second message');
    expect((await chat.storedThread(threadId)).title).toBe(
      'control chat, started 2026-11-20 10:00 UTC: “How long should my daughter stay rear-facing? Really Really…”',
    );
  });
});
