import { describe, expect, it } from 'vitest';
import type { ChatTurn } from './chat-model.js';
import { alternateTurns, estimateTokens, fitHistory, OPENING_CUE, openingTurns } from './history.js';

const u = (content: string): ChatTurn => ({ role: 'user', content });
const a = (content: string): ChatTurn => ({ role: 'assistant', content });

describe('history for the providers', () => {
  it('merges turns of one role, counting a message sent again word for word once', () => {
    expect(alternateTurns([a('Hi'), u('Q1'), u(' Q1 '), u('Q2'), a('A'), a('B'), u('Q3')])).toEqual([
      a('Hi'),
      u('Q1\n\nQ2'),
      a('A\n\nB'),
      u('Q3'),
    ]);
  });

  it('keeps everything that fits, greeting included (the opening cue then comes first)', () => {
    const turns = [a('Hello'), u('Q1'), a('A1'), u('Q2')];
    expect(fitHistory('system', turns, 10_000)).toEqual(turns);
    expect(openingTurns(fitHistory('system', turns, 10_000))[0]).toEqual(u(OPENING_CUE));
  });

  it('drops the oldest turns first, keeps the system prompt’s room, and starts with a user turn', () => {
    const long = 'x'.repeat(300);
    const turns = [a('Hello'), u(`Q1 ${long}`), a(`A1 ${long}`), u(`Q2 ${long}`), a(`A2 ${long}`), u('Q3')];
    const system = 's'.repeat(600);
    const budget = estimateTokens(system) + estimateTokens('Q3') + 2 * estimateTokens(`A2 ${long}`) + 1;
    const kept = fitHistory(system, turns, budget);
    // A2 and Q2 fit; A2 cannot be first, so the history starts at Q2.
    expect(kept).toEqual([u(`Q2 ${long}`), a(`A2 ${long}`), u('Q3')]);
    const tighter = fitHistory(
      system,
      turns,
      estimateTokens(system) + estimateTokens('Q3') + estimateTokens(`A2 ${long}`),
    );
    expect(tighter).toEqual([u('Q3')]);
  });

  it('always sends the message to answer, even with no room at all', () => {
    expect(fitHistory('system prompt', [a('Hello'), u('Q1')], 1)).toEqual([u('Q1')]);
    expect(fitHistory('system prompt', [], 1)).toEqual([]);
  });
});
