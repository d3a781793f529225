import { journey } from '../test-support';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { builtInStudy } from '../builtin-study';
import { experimentKeys } from '../../../lib/storage-keys';
import { PASTE_HINT } from './ChatInput';
import { COMPLETION_TEXT } from './ChatPage';
import {
  EXPERIMENT,
  THREAD,
  fakeServer,
  json,
  loginAsParticipant,
  openStream,
  paths,
  progress,
  renderChat,
  sse,
  THREAD_EXTRA,
  type Handler,
} from './chat.test-utils';

const keys = experimentKeys(EXPERIMENT);
const GREETING = 'Hello! What would you like to talk about?';

function message(id: number, role: 'user' | 'assistant', content: string) {
  return {
    id: `00000000-0000-4000-8000-00000000000${id}`,
    role,
    content,
    created_at: '2026-11-21T00:00:00.000Z',
    status: 'complete',
  };
}

/** A server whose thread is new; replies are `Reply n`; progress follows the messages sent. */
function newThreadServer(overrides: Partial<Record<string, Handler>> = {}) {
  const userMessages: string[] = [];
  const server = fakeServer({
    [paths.initiate]: () => json(200, { threadId: THREAD, ...THREAD_EXTRA, progress: progress(0, 0), messageCount: 0 }),
    [paths.initial]: () => sse([{ text: 'Hello! ' }, { text: 'What would you like to talk about?' }]),
    [paths.send]: (call) => {
      userMessages.push((call.body as { message: string }).message);
      return sse([{ text: `Reply ${userMessages.length}` }]);
    },
    [paths.messages]: () =>
      json(200, {
        threadId: THREAD,
        ...THREAD_EXTRA,
        messages: [message(1, 'assistant', GREETING)],
        progress: progress(
          userMessages.length,
          userMessages.reduce((n, m) => n + m.trim().length, 0),
        ),
      }),
    ...overrides,
  });
  return { ...server, userMessages };
}

async function startChat(user: ReturnType<typeof userEvent.setup>) {
  renderChat();
  await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
  await screen.findByText(GREETING);
}

const input = () => screen.getByRole('textbox', { name: 'Your message to the assistant' });
const log = () => screen.getByRole('log');

beforeEach(() => {
  loginAsParticipant();
  // The page logs a failed opening stream before falling back; keep test output quiet.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ChatPage: starting', () => {
  it('shows Start Conversation before a thread exists, then streams the opening message and stores the thread', async () => {
    const server = newThreadServer();
    const user = userEvent.setup();
    renderChat();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Proceed' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
    expect(await within(log()).findByText(GREETING)).toBeInTheDocument();
    expect(server.calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/chat/initiate',
      body: { experimentId: EXPERIMENT },
    });
    expect(localStorage.getItem(keys.threadId)).toBe(THREAD);
    await waitFor(() => expect(localStorage.getItem(keys.messages)).toContain(GREETING));
    expect(screen.getByText('Engagement: 0/100')).toBeInTheDocument();
    expect(screen.getByText('Rounds: 0/3')).toBeInTheDocument();
  });

  it('falls back to the first stored assistant message when the opening stream fails', async () => {
    newThreadServer({
      [paths.initial]: () => json(500, { error: 'boom', code: 'INTERNAL' }),
      [paths.messages]: () =>
        json(200, {
          threadId: THREAD,
          ...THREAD_EXTRA,
          messages: [message(1, 'assistant', 'Stored opening'), message(2, 'assistant', 'Later one')],
          progress: progress(0, 0),
        }),
    });
    const user = userEvent.setup();
    renderChat();
    await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
    expect(await within(log()).findByText('Stored opening')).toBeInTheDocument();
    expect(screen.queryByText('Later one')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('falls back to the canned greeting when both the stream and the stored messages fail', async () => {
    newThreadServer({
      [paths.initial]: () => sse([{ error: 'Model unavailable' }]),
      [paths.messages]: () => json(500, { error: 'down', code: 'INTERNAL' }),
    });
    const user = userEvent.setup();
    renderChat();
    await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
    // No condition in this session: the mmr greeting (the page reads the condition when it has one).
    expect(await within(log()).findByText(builtInStudy.chat.fallbackGreetings.mmr)).toBeInTheDocument();
    expect(input()).toBeEnabled();
  });

  it("says 'Failed to start chat: ... Please try refreshing the page.' when the thread cannot be created", async () => {
    newThreadServer({ [paths.initiate]: () => json(403, { error: 'No condition assigned', code: 'NO_CONDITION' }) });
    const user = userEvent.setup();
    renderChat();
    await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to start chat: No condition assigned. Please try refreshing the page.',
    );
    expect(screen.getByRole('button', { name: 'Start Conversation' })).toBeEnabled();
  });

  it('refuses to start without a logged-in participant', async () => {
    localStorage.removeItem('token');
    const server = newThreadServer();
    const user = userEvent.setup();
    renderChat();
    await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Cannot start chat: Missing required properties (experimentId, currentUser).',
    );
    expect(server.calls).toHaveLength(0);
  });
});

describe('ChatPage: the input', () => {
  it('sends on Enter, adds a line on Shift+Enter, and shows the reply', async () => {
    const server = newThreadServer();
    const user = userEvent.setup();
    await startChat(user);
    await user.type(input(), 'First line{Shift>}{Enter}{/Shift}second line');
    expect(input()).toHaveValue('First line\nsecond line');
    expect(server.sent()).toHaveLength(0);
    await user.keyboard('{Enter}');
    expect(await within(log()).findByText('Reply 1')).toBeInTheDocument();
    expect(server.sent()[0]?.body).toEqual({ message: 'First line\nsecond line' });
    expect(input()).toHaveValue('');
    expect(within(log()).getByText(/First line/)).toHaveTextContent('First line second line');
  });

  it('does not send an empty or whitespace-only message', async () => {
    const server = newThreadServer();
    const user = userEvent.setup();
    await startChat(user);
    await user.type(input(), '   {Enter}');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(server.sent()).toHaveLength(0);
  });

  it('blocks pasting, explains why, and reports the pasted length only (never the text)', async () => {
    const server = newThreadServer({ 'POST /api/chat/paste-blocked': () => json(200, { recorded: true }) });
    const user = userEvent.setup();
    await startChat(user);
    await user.click(input());
    await user.paste('copied text');
    expect(input()).toHaveValue('');
    expect(screen.getByText(PASTE_HINT)).toBeInTheDocument();
    await waitFor(() =>
      expect(server.calls.filter((c) => c.url === '/api/chat/paste-blocked')).toEqual([
        { method: 'POST', url: '/api/chat/paste-blocked', body: { experimentId: EXPERIMENT, length: 11 } },
      ]),
    );
    expect(JSON.stringify(server.calls)).not.toContain('copied text');
  });

  it('blocks sending while a reply is streaming, showing the loading bubble until text arrives', async () => {
    const stream = openStream();
    const server = newThreadServer({ [paths.send]: () => stream.response });
    const user = userEvent.setup();
    await startChat(user);
    await user.type(input(), 'Question one{Enter}');
    expect(await within(log()).findByText('The assistant is typing…')).toBeInTheDocument();
    await user.type(input(), 'Question two{Enter}');
    expect(server.sent()).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(input()).toHaveValue('Question two');
    await act(async () => stream.text('Partial'));
    expect(await within(log()).findByText('Partial')).toBeInTheDocument();
    expect(within(log()).queryByText('The assistant is typing…')).not.toBeInTheDocument();
    await act(async () => stream.finish());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
  });

  it("shows '[No response from assistant]' for an empty reply, counts no round and offers the text again", async () => {
    let sent = false;
    newThreadServer({
      [paths.send]: () => {
        sent = true;
        return sse([]);
      },
      [paths.messages]: () =>
        json(200, {
          threadId: THREAD,
          ...THREAD_EXTRA,
          messages: sent
            ? [
                message(1, 'assistant', GREETING),
                message(2, 'user', 'Hello?'),
                { ...message(3, 'assistant', ''), status: 'empty' },
              ]
            : [message(1, 'assistant', GREETING)],
          progress: progress(0, 0),
        }),
    });
    const user = userEvent.setup();
    await startChat(user);
    await user.type(input(), 'Hello?{Enter}');
    expect(await within(log()).findByText('[No response from assistant]')).toBeInTheDocument();
    await waitFor(() => expect(input()).toHaveValue('Hello?'));
    expect(screen.getByText('Rounds: 0/3')).toBeInTheDocument();
  });

  it('puts the text back, removes the loading bubble and explains when sending is refused (409)', async () => {
    newThreadServer({
      [paths.send]: () => json(409, { error: 'A reply is already being written', code: 'REPLY_IN_PROGRESS' }),
    });
    const user = userEvent.setup();
    await startChat(user);
    await user.type(input(), 'My own words{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to send message: A reply is already being written',
    );
    expect(input()).toHaveValue('My own words');
    expect(within(log()).queryByText('My own words')).not.toBeInTheDocument();
    expect(within(log()).queryByText('The assistant is typing…')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('keeps the page usable after a network failure', async () => {
    let offline = true;
    const server = newThreadServer({
      [paths.send]: () => (offline ? Promise.reject(new TypeError('Failed to fetch')) : sse([{ text: 'Back again' }])),
    });
    const user = userEvent.setup();
    await startChat(user);
    await user.type(input(), 'Are you there?{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to send message: Could not reach the server/);
    expect(input()).toHaveValue('Are you there?');
    offline = false;
    await user.keyboard('{Enter}');
    expect(await within(log()).findByText('Back again')).toBeInTheDocument();
    expect(server.sent()).toHaveLength(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the cut-off reply and the server's conversation when the connection drops mid-reply", async () => {
    const encoder = new TextEncoder();
    newThreadServer({
      [paths.send]: () => {
        let sent = false;
        const body = new ReadableStream<Uint8Array>({
          pull(c) {
            if (sent) return c.error(new TypeError('network error'));
            sent = true;
            c.enqueue(encoder.encode('data: {"text":"Half a rep"}\n\n'));
          },
        });
        return new Response(body, { status: 200 });
      },
      [paths.messages]: () =>
        json(200, {
          threadId: THREAD,
          ...THREAD_EXTRA,
          messages: [
            message(1, 'assistant', GREETING),
            message(2, 'user', 'Why?'),
            message(3, 'assistant', 'Half a reply, completed on the server'),
          ],
          progress: progress(1, 4),
        }),
    });
    const user = userEvent.setup();
    await startChat(user);
    await user.type(input(), 'Why?{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to send message: The connection was interrupted.',
    );
    expect(await within(log()).findByText('Half a reply, completed on the server')).toBeInTheDocument();
    expect(input()).toHaveValue('');
    expect(screen.getByText('Rounds: 1/3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(input(), 'Next');
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('treats a reply that ends without [DONE] as cut off', async () => {
    newThreadServer({ [paths.send]: () => sse([{ text: 'Partial' }], { done: false }) });
    const user = userEvent.setup();
    await startChat(user);
    await user.type(input(), 'Hello{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to send message: The connection was interrupted.',
    );
  });

  it('moves focus to the message box after Start Conversation, and back to it after Send is clicked', async () => {
    newThreadServer();
    const user = userEvent.setup();
    await startChat(user);
    await waitFor(() => expect(input()).toHaveFocus());
    await user.type(input(), 'Clicking send');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await within(log()).findByText('Reply 1')).toBeInTheDocument();
    expect(input()).toHaveFocus();
  });

  it('shows an error sent inside the stream, takes the thread from the server and puts the text back to resend', async () => {
    newThreadServer({
      [paths.send]: () => sse([{ error: 'The assistant is unavailable' }]),
      [paths.messages]: () =>
        json(200, {
          threadId: THREAD,
          ...THREAD_EXTRA,
          messages: [message(1, 'assistant', GREETING), message(2, 'user', 'Tell me more')],
          // The server counts a round only once it has a full reply.
          progress: progress(0, 0),
        }),
    });
    const user = userEvent.setup();
    await startChat(user);
    await user.type(input(), 'Tell me more{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to send message: The assistant is unavailable');
    expect(within(log()).getByText('Tell me more')).toBeInTheDocument();
    await waitFor(() => expect(input()).toHaveValue('Tell me more'));
    expect(screen.getByText('Rounds: 0/3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });
});

describe('ChatPage: content', () => {
  it('renders triple-backtick blocks as preformatted text and HTML as plain text', async () => {
    newThreadServer({
      [paths.send]: () =>
        sse([
          { text: 'Before <b>bold</b><img src=x onerror="alert(1)">\n```js\nconst a = 1;\n  indented();\n```\nAfter' },
        ]),
    });
    const user = userEvent.setup();
    await startChat(user);
    await user.type(input(), 'Show code{Enter}');
    const pre = await within(log()).findByText(/const a = 1;/, { selector: 'pre code' });
    expect(pre.textContent).toBe('const a = 1;\n  indented();');
    expect(within(log()).getByText(/Before <b>bold<\/b>/)).toBeInTheDocument();
    expect(document.body.querySelector('[role="log"] b')).toBeNull();
    expect(document.body.querySelector('[role="log"] img')).toBeNull();
    expect(within(log()).getByText('After')).toBeInTheDocument();
  });
});

describe('ChatPage: progress and Proceed', () => {
  it('enables Proceed only when complete, shows the completion message, and Proceed clears the chat and goes on', async () => {
    const server = newThreadServer();
    const user = userEvent.setup();
    await startChat(user);
    const long = 'I would like to know more about how safe the vaccine is for young children';
    for (const [i, text] of [long, long, 'And the timing?'].entries()) {
      await user.type(input(), `${text}{Enter}`);
      await within(log()).findByText(`Reply ${i + 1}`);
      await waitFor(() => expect(screen.getByText(`Rounds: ${i + 1}/3`)).toBeInTheDocument());
      if (i < 2) {
        expect(screen.getByRole('button', { name: 'Proceed' })).toBeDisabled();
        expect(screen.queryByText(COMPLETION_TEXT)).not.toBeInTheDocument();
      }
    }
    expect(server.userMessages).toHaveLength(3);
    expect(screen.getByText('Engagement: 100/100')).toBeInTheDocument();
    expect(screen.getByText(COMPLETION_TEXT)).toBeInTheDocument();
    expect(input()).toBeEnabled();
    await waitFor(() => expect(localStorage.getItem(keys.complete)).toBe('true'));
    expect(localStorage.getItem(keys.rounds)).toBe('3');
    await user.click(screen.getByRole('button', { name: 'Proceed' }));
    expect(await screen.findByText('Post-survey page')).toBeInTheDocument();
    for (const key of [keys.threadId, keys.messages, keys.rounds, keys.chars, keys.points, keys.complete])
      expect(localStorage.getItem(key)).toBeNull();
    expect(localStorage.getItem('token')).not.toBeNull();
  });

  it('takes rounds and points from the reply stream’s last event rather than its own count, with no read after', async () => {
    const server = newThreadServer({
      [paths.send]: () =>
        sse([{ text: 'Reply' }, { progress: progress(3, 140), limits: { maxMessageChars: 1000, messagesLeft: 7 } }]),
    });
    const user = userEvent.setup();
    await startChat(user);
    const reads = server.calls.filter((c) => c.method === 'GET' && c.url.endsWith('/messages')).length;
    await user.type(input(), 'Hi{Enter}');
    await waitFor(() => expect(screen.getByText('Rounds: 3/3')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Proceed' })).toBeEnabled();
    expect(server.calls.filter((c) => c.method === 'GET' && c.url.endsWith('/messages'))).toHaveLength(reads);
  });
});

describe('ChatPage: restoring', () => {
  it('restores a stored conversation at once and then takes the server version', async () => {
    localStorage.setItem(keys.threadId, THREAD);
    localStorage.setItem(keys.messages, JSON.stringify([message(1, 'assistant', 'Cached hello')]));
    localStorage.setItem(keys.rounds, '0');
    fakeServer({
      [paths.messages]: () =>
        json(200, {
          threadId: THREAD,
          ...THREAD_EXTRA,
          messages: [message(1, 'assistant', 'Server hello'), message(2, 'user', 'Earlier question')],
          progress: progress(1, 16),
        }),
    });
    renderChat();
    expect(within(log()).getByText('Cached hello')).toBeInTheDocument();
    expect(await within(log()).findByText('Earlier question')).toBeInTheDocument();
    expect(screen.getByText('Rounds: 1/3')).toBeInTheDocument();
    expect(screen.getByText('Engagement: 18/100')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start Conversation' })).not.toBeInTheDocument();
  });

  it('shows the conversation from the server when local storage was lost', async () => {
    const server = fakeServer({
      [paths.initiate]: () =>
        json(200, { threadId: THREAD, ...THREAD_EXTRA, progress: progress(2, 30), messageCount: 5 }),
      [paths.messages]: () =>
        json(200, {
          threadId: THREAD,
          ...THREAD_EXTRA,
          messages: [message(1, 'assistant', 'Opening'), message(2, 'user', 'Q1'), message(3, 'assistant', 'A1')],
          progress: progress(2, 30),
        }),
    });
    const user = userEvent.setup();
    renderChat();
    await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
    expect(await within(log()).findByText('A1')).toBeInTheDocument();
    expect(screen.getByText('Rounds: 2/3')).toBeInTheDocument();
    expect(server.calls.some((c) => c.url.endsWith('/initial-message'))).toBe(false);
    await waitFor(() => expect(localStorage.getItem(keys.threadId)).toBe(THREAD));
  });

  it("resumes the server's thread on a device with nothing stored, without Start Conversation", async () => {
    const server = fakeServer({
      [paths.messages]: () =>
        json(200, {
          threadId: THREAD,
          messages: [message(1, 'assistant', 'Opening'), message(2, 'user', 'Q1'), message(3, 'assistant', 'A1')],
          progress: progress(1, 2),
          ...THREAD_EXTRA,
        }),
    });
    const chat = { threadId: THREAD, ...progress(1, 2) };
    renderChat(journey({ experimentId: EXPERIMENT, step: 'chat', chat: { ...chat, closed: null } }));
    expect(await within(log()).findByText('A1')).toBeInTheDocument();
    expect(screen.getByText('Rounds: 1/3')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start Conversation' })).not.toBeInTheDocument();
    expect(server.calls.map((c) => `${c.method} ${c.url}`)).toEqual([paths.messages]);
  });

  it('starts over when the stored thread is not found on the server', async () => {
    localStorage.setItem(keys.threadId, THREAD);
    localStorage.setItem(keys.messages, JSON.stringify([message(1, 'assistant', 'Old')]));
    fakeServer({});
    renderChat();
    expect(await screen.findByRole('button', { name: 'Start Conversation' })).toBeInTheDocument();
    await waitFor(() => expect(localStorage.getItem(keys.messages)).toBe('[]'));
  });

  it("says 'Failed to initialize chat: ...' when a stored thread cannot be loaded and nothing is cached", async () => {
    localStorage.setItem(keys.threadId, THREAD);
    fakeServer({ [paths.messages]: () => json(500, { error: 'Database unavailable', code: 'INTERNAL' }) });
    renderChat();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to initialize chat: Database unavailable');
  });
});
