import { journey } from '../test-support';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { builtInStudy } from '../builtin-study';
import type { PageStudy } from '../study-context';
import { COMPLETION_TEXT } from './ChatPage';
import {
  EXPERIMENT,
  fakeServer,
  json,
  loginAsParticipant,
  paths,
  progress,
  renderChat,
  sse,
  THREAD,
  THREAD_EXTRA,
} from './chat.test-utils';

// The study's own completion rule (docs/decisions/0049): the page shows its targets and opens Proceed by it.

/** A study asking for 1 round and 10 points in the control condition only. */
const study: PageStudy = {
  ...builtInStudy,
  chat: { ...builtInStudy.chat, completion: { control: { rounds: 1, points: 10 } } },
};

const journeyIn = (condition: 'mmr' | 'control') =>
  journey({ experimentId: EXPERIMENT, step: 'chat', condition, chat: { ...journey().chat, threadId: null } });

/** A new thread; the re-read after a reply fails, so the page's own count is what shows. */
function server() {
  return fakeServer({
    [paths.initiate]: () => json(200, { threadId: THREAD, ...THREAD_EXTRA, progress: progress(0, 0), messageCount: 0 }),
    [paths.initial]: () => sse([{ text: 'Hello there.' }]),
    [paths.send]: () => sse([{ text: 'Reply 1' }]),
    [paths.messages]: () => json(500, { error: 'down', code: 'INTERNAL' }),
  });
}

async function chatOnce(condition: 'mmr' | 'control') {
  server();
  const user = userEvent.setup();
  renderChat(journeyIn(condition), study);
  await user.click(screen.getByRole('button', { name: 'Start Conversation' }));
  await screen.findByText('Hello there.');
  await user.type(screen.getByRole('textbox', { name: 'Your message to the assistant' }), 'Hi{Enter}');
  await within(screen.getByRole('log')).findByText('Reply 1');
}

beforeEach(() => {
  loginAsParticipant();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("ChatPage: the study's own completion rule", () => {
  it('shows the condition’s targets and opens Proceed after one round when the study asks for one', async () => {
    await chatOnce('control');
    await waitFor(() => expect(screen.getByText('Rounds: 1/1')).toBeInTheDocument());
    expect(screen.getByText('Engagement: 10/10')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Proceed' })).toBeEnabled();
    expect(screen.getByText(COMPLETION_TEXT)).toBeInTheDocument();
  });

  it("keeps the spec's 3 rounds and 100 points in a condition the rule leaves out", async () => {
    await chatOnce('mmr');
    await waitFor(() => expect(screen.getByText('Rounds: 1/3')).toBeInTheDocument());
    expect(screen.getByText('Engagement: 11/100')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Proceed' })).toBeDisabled();
    expect(screen.getByText('Available after at least 3 rounds and 100 engagement points.')).toBeInTheDocument();
    expect(screen.queryByText(COMPLETION_TEXT)).not.toBeInTheDocument();
  });

  it('says what the rule asks for before Proceed opens', async () => {
    server();
    renderChat(journeyIn('control'), study);
    expect(screen.getByText('Rounds: 0/1')).toBeInTheDocument();
    expect(screen.getByText('Engagement: 0/10')).toBeInTheDocument();
    expect(screen.getByText('Available after at least 1 round and 10 engagement points.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Proceed' })).toBeDisabled();
  });
});

describe("the start screen says the condition's own rule", () => {
  it('names 1 exchange and the bar for the study rule, and the spec words for the spec rule', () => {
    server();
    const { unmount } = renderChat(journeyIn('control'), study);
    expect(
      screen.getByText(/Once you have had at least 1 exchange and the engagement bar is full, you can proceed/),
    ).toBeInTheDocument();
    unmount();
    renderChat(journeyIn('mmr'), study);
    expect(
      screen.getByText(/Once you have had at least 3 exchanges and the engagement bar is full, you can proceed/),
    ).toBeInTheDocument();
  });
});
