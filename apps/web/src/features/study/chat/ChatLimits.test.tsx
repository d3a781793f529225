import { CHAT_CLOSED_TEXT } from '@studychat/contracts/web';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { builtInStudy } from '../builtin-study';
import { experimentKeys } from '../../../lib/storage-keys';
import { messagesLeftText, tooLongText } from './ChatInput';
import {
  EXPERIMENT,
  LIMITS,
  THREAD,
  fakeServer,
  json,
  loginAsParticipant,
  paths,
  progress,
  renderChat,
  sse,
} from './chat.test-utils';

// The chat's limits on the page: the character counter, the end of the chat, following a reply written
// for a page the participant left, and the canned greeting of each condition.
const keys = experimentKeys(EXPERIMENT);
const GREETING = 'Hello! What would you like to know?';

function message(id: number, role: 'user' | 'assistant', content: string, status = 'complete') {
  return {
    id: `00000000-0000-4000-8000-00000000000${id}`,
    role,
    content,
    created_at: '2026-11-21T00:00:00.000Z',
    status,
  };
}

function thread(over: Record<string, unknown> = {}) {
  return {
    threadId: THREAD,
    messages: [message(1, 'assistant', GREETING)],
    progress: progress(0, 0),
    limits: LIMITS,
    replying: false,
    ...over,
  };
}

const input = () => screen.getByRole('textbox', { name: 'Your message to the assistant' });
const log = () => screen.getByRole('log');
const proceed = () => screen.getByRole('button', { name: 'Proceed' });

beforeEach(() => {
  loginAsParticipant();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  sessionStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function started(limits = LIMITS, over: Record<string, unknown> = {}) {
  const server = fakeServer({
    [paths.initiate]: () => json(200, { threadId: THREAD, progress: progress(0, 0), limits, messageCount: 0 }),
    [paths.initial]: () => sse([{ text: GREETING }]),
    [paths.messages]: () => json(200, thread({ limits, ...over })),
    [paths.send]: () => sse([{ text: 'An answer.' }]),
  });
  const user = userEvent.setup();
  renderChat();
  await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
  await within(log()).findByText(GREETING);
  return { server, user };
}

describe('the character counter', () => {
  it('appears near the limit, refuses over it without cutting the text, and Send waits until it fits', async () => {
    const { server } = await started({ maxMessageChars: 50, messagesLeft: 30 });
    fireEvent.change(input(), { target: { value: 'x'.repeat(39) } });
    expect(screen.queryByText(/\/ 50/)).not.toBeInTheDocument();
    fireEvent.change(input(), { target: { value: 'x'.repeat(40) } });
    expect(screen.getByText('40 / 50')).toBeInTheDocument();
    fireEvent.change(input(), { target: { value: 'x'.repeat(57) } });
    expect(input()).toHaveValue('x'.repeat(57));
    expect(screen.getByText('57 / 50')).toBeInTheDocument();
    expect(screen.getByText(tooLongText(57, 50))).toBeInTheDocument();
    expect(tooLongText(57, 50)).toBe(
      'Your message is 7 characters too long: this chat takes at most 50. Please shorten it to send it.',
    );
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(server.sent()).toHaveLength(0);
    fireEvent.change(input(), { target: { value: 'x'.repeat(50) } });
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('counts an emoji as one character, as the server does', async () => {
    await started({ maxMessageChars: 10, messagesLeft: 30 });
    fireEvent.change(input(), { target: { value: '😀'.repeat(10) } });
    expect(screen.getByText('10 / 10')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('says how many messages are left when few are', async () => {
    await started({ maxMessageChars: 1000, messagesLeft: 2 });
    await waitFor(() => expect(screen.getByText(messagesLeftText(2))).toBeInTheDocument());
    expect(messagesLeftText(1)).toBe('This is the last message you can send in this chat.');
  });
});

describe('a chat ended by a limit', () => {
  it('shows why, hides the box and opens Proceed without the engagement goal', async () => {
    localStorage.setItem(keys.threadId, THREAD);
    fakeServer({
      [paths.messages]: () =>
        json(
          200,
          thread({
            progress: { ...progress(2, 20), closed: { reason: 'message_limit' } },
            limits: { ...LIMITS, messagesLeft: 0 },
          }),
        ),
    });
    const user = userEvent.setup();
    renderChat();
    expect(await screen.findByText(CHAT_CLOSED_TEXT.message_limit)).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByText('Rounds: 2/3')).toBeInTheDocument();
    expect(proceed()).toBeEnabled();
    await user.click(proceed());
    expect(await screen.findByText('Post-survey page')).toBeInTheDocument();
  });

  it('takes a refused send (409 CHAT_CLOSED) to the ended state', async () => {
    let closed = false;
    const server = fakeServer({
      [paths.initiate]: () =>
        json(200, { threadId: THREAD, progress: progress(0, 0), limits: LIMITS, messageCount: 0 }),
      [paths.initial]: () => sse([{ text: GREETING }]),
      [paths.send]: () => {
        closed = true;
        return json(409, { error: CHAT_CLOSED_TEXT.budget, code: 'CHAT_CLOSED' });
      },
      [paths.messages]: () =>
        json(200, thread({ progress: { ...progress(0, 0), closed: closed ? { reason: 'budget' } : null } })),
    });
    const user = userEvent.setup();
    renderChat();
    await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
    await within(log()).findByText(GREETING);
    await user.type(input(), 'Hello{Enter}');
    expect(await screen.findByText(CHAT_CLOSED_TEXT.budget)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(proceed()).toBeEnabled();
    expect(server.sent()).toHaveLength(1);
  });

  it('skips the greeting when the chat ended before it was written', async () => {
    const server = fakeServer({
      [paths.initiate]: () =>
        json(200, {
          threadId: THREAD,
          progress: { ...progress(0, 0), closed: { reason: 'budget' } },
          limits: LIMITS,
          messageCount: 0,
        }),
      [paths.messages]: () =>
        json(200, thread({ messages: [], progress: { ...progress(0, 0), closed: { reason: 'budget' } } })),
    });
    const user = userEvent.setup();
    renderChat();
    await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
    expect(await screen.findByText(CHAT_CLOSED_TEXT.budget)).toBeInTheDocument();
    expect(server.calls.some((c) => c.url.endsWith('/initial-message'))).toBe(false);
    expect(proceed()).toBeEnabled();
  });
});

describe('coming back while a reply is being written', () => {
  it('shows the message at once and follows the reply until it is stored', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    localStorage.setItem(keys.threadId, THREAD);
    let polls = 0;
    fakeServer({
      [paths.messages]: () => {
        polls += 1;
        const writing = polls < 3;
        return json(
          200,
          thread({
            messages: [
              message(1, 'assistant', GREETING),
              message(2, 'user', 'Is it safe?'),
              writing ? message(3, 'assistant', 'It is', 'streaming') : message(3, 'assistant', 'It is very safe.'),
            ],
            progress: progress(writing ? 0 : 1, 11),
            replying: writing,
          }),
        );
      },
    });
    renderChat();
    expect(await within(log()).findByText('Is it safe?')).toBeInTheDocument();
    expect(await within(log()).findByText('It is')).toBeInTheDocument();
    expect(log()).toHaveAttribute('aria-busy', 'true');
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(await within(log()).findByText('It is very safe.')).toBeInTheDocument();
    expect(log()).toHaveAttribute('aria-busy', 'false');
    expect(screen.getByText('Rounds: 1/3')).toBeInTheDocument();
  });
});

describe('the canned greeting', () => {
  it('speaks of car seats in the control condition', async () => {
    sessionStorage.setItem('assignedCondition', 'control');
    fakeServer({
      [paths.initiate]: () =>
        json(200, { threadId: THREAD, progress: progress(0, 0), limits: LIMITS, messageCount: 0 }),
      [paths.initial]: () => sse([{ error: 'The assistant could not start the conversation.' }]),
      [paths.messages]: () => json(200, thread({ messages: [] })),
    });
    const user = userEvent.setup();
    renderChat();
    await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
    expect(await within(log()).findByText(builtInStudy.chat.fallbackGreetings.control)).toBeInTheDocument();
    expect(builtInStudy.chat.fallbackGreetings.control).not.toMatch(/vaccin/i);
  });
});
