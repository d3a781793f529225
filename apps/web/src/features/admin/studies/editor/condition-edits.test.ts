import { describe, expect, it } from 'vitest';
import { addCondition, removeCondition, renameCondition } from './condition-edits';

const draft = () => ({
  title: 'T',
  conditionList: [
    { id: 'mmr', label: 'Vaccine' },
    { id: 'control', label: 'Car seats' },
  ],
  conditions: { mmr: { topic: 'a' }, control: { topic: 'b' } },
  chat: {
    conditions: { mmr: { systemPrompt: 'A' }, control: { systemPrompt: 'B' } },
    fallbackGreetings: { mmr: 'Hi A', control: 'Hi B' },
    completion: { control: { rounds: 2 } },
  },
});

describe('condition edits', () => {
  it('renames a condition in the list and in every per-condition part, keeping the order', () => {
    const next = renameCondition(draft(), 'control', 'car_seats');
    expect(next.conditionList).toEqual([
      { id: 'mmr', label: 'Vaccine' },
      { id: 'car_seats', label: 'Car seats' },
    ]);
    expect(Object.keys(next.conditions as object)).toEqual(['mmr', 'car_seats']);
    expect(next.chat).toEqual({
      conditions: { mmr: { systemPrompt: 'A' }, car_seats: { systemPrompt: 'B' } },
      fallbackGreetings: { mmr: 'Hi A', car_seats: 'Hi B' },
      completion: { car_seats: { rounds: 2 } },
    });
  });

  it("adds a condition whose parts start as copies of the last one's, under a fresh id", () => {
    const next = addCondition(draft());
    expect(next.conditionList).toEqual([
      { id: 'mmr', label: 'Vaccine' },
      { id: 'control', label: 'Car seats' },
      { id: 'condition_3', label: 'Condition 3' },
    ]);
    expect((next.conditions as Record<string, unknown>).condition_3).toEqual({ topic: 'b' });
    expect((next.chat as { fallbackGreetings: Record<string, string> }).fallbackGreetings.condition_3).toBe('Hi B');
    expect((next.chat as { completion: Record<string, unknown> }).completion.condition_3).toEqual({ rounds: 2 });
  });

  it('removes a condition from the list and every part, and leaves the original draft as it was', () => {
    const original = draft();
    const next = removeCondition(original, 'mmr');
    expect(next.conditionList).toEqual([{ id: 'control', label: 'Car seats' }]);
    expect(next.conditions).toEqual({ control: { topic: 'b' } });
    expect((next.chat as { conditions: object }).conditions).toEqual({ control: { systemPrompt: 'B' } });
    expect(original).toEqual(draft());
  });
});
