import type { FlowStepView } from '@studychat/contracts/web';
import { describe, expect, it } from 'vitest';
import { startText } from '../../chat/StartConversation';
import { armDeadlines, armTime } from './chat-minutes';
import { minutesNote } from './ChatStep';

type ChatView = Extract<FlowStepView, { type: 'chat' }>;

const view = (over: Partial<ChatView>): ChatView => ({
  id: 'talk',
  type: 'chat',
  title: 'Talk',
  intro: '',
  completion: { rounds: 1, points: 0 },
  minSecondsLeft: null,
  maxSecondsLeft: null,
  fallbackGreeting: 'Hello!',
  threadId: null,
  ...over,
});

describe("a flow chat arm's minutes on the page", () => {
  it('counts from the seconds the server sent for a chat it had started, and from the start on this page otherwise', () => {
    const started = view({ completion: { rounds: 1, points: 0, minMinutes: 2 }, minSecondsLeft: 30, threadId: 't' });
    expect(armDeadlines(started, 1_000, null)).toEqual({ min: 31_000, max: null });
    const fresh = view({ completion: { rounds: 1, points: 0, minMinutes: 2, maxMinutes: 5 }, minSecondsLeft: 120 });
    expect(armDeadlines(fresh, 1_000, null)).toEqual({ min: null, max: null });
    expect(armDeadlines(fresh, 1_000, 10_000)).toEqual({ min: 130_000, max: 310_000 });
  });

  it('holds Proceed until the least minutes pass, and frees it at the most minutes', () => {
    const step = view({ completion: { rounds: 1, points: 0, minMinutes: 2, maxMinutes: 5 } });
    const deadlines = { min: 120_000, max: 300_000 };
    expect(armTime(step, deadlines, 0)).toEqual({ minPassed: false, maxPassed: false, minutesToMin: 2 });
    expect(armTime(step, deadlines, 61_000)).toEqual({ minPassed: false, maxPassed: false, minutesToMin: 1 });
    expect(armTime(step, deadlines, 120_000)).toMatchObject({ minPassed: true, maxPassed: false });
    expect(armTime(step, deadlines, 300_000)).toMatchObject({ minPassed: true, maxPassed: true });
    // Before the chat starts, the whole least minutes are ahead; an arm without minutes holds nothing up.
    expect(armTime(step, { min: null, max: null }, 0)).toEqual({ minPassed: false, maxPassed: false, minutesToMin: 2 });
    expect(armTime(view({}), { min: null, max: null }, 0)).toEqual({
      minPassed: true,
      maxPassed: false,
      minutesToMin: 0,
    });
  });

  it('tells the participant why Proceed waits, and when the time is up', () => {
    expect(minutesNote({ minPassed: false, maxPassed: false, minutesToMin: 2 }, true)).toBe(
      'Please keep the conversation going: you can proceed in about 2 more minutes.',
    );
    expect(minutesNote({ minPassed: false, maxPassed: false, minutesToMin: 2 }, false)).toBeNull();
    expect(minutesNote({ minPassed: true, maxPassed: true, minutesToMin: 0 }, false)).toBe(
      'The time for this conversation is up. You may select Proceed to continue.',
    );
    expect(startText({ rounds: 3, points: 0, minMinutes: 5, maxMinutes: 10 })).toBe(
      'Next, you will have a short conversation with an AI assistant. Ask questions or share your thoughts in your own words. Once you have had at least 3 exchanges, and at least 5 minutes have passed, you can proceed to the last step. After 10 minutes you can proceed however many exchanges you have had.',
    );
  });
});
