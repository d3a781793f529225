import { afterEach, describe, expect, it, vi } from 'vitest';
import { freshJourney, JOURNEY_FRESH_MS, receiveJourney, resetParticipant } from './participant-store';
import { EXP_ID, journey, loginAs } from './test-support';

afterEach(() => vi.useRealTimers());

describe('the participant store', () => {
  it("keeps the server's journey for its experiment and login while fresh, and mirrors it into the session", () => {
    loginAs();
    const atEntry = journey({ step: 'entry', done: { ...journey().done, consent: true } });
    receiveJourney(atEntry);
    expect(freshJourney(EXP_ID)).toEqual(atEntry);
    expect(freshJourney('33333333-3333-4333-8333-333333333333')).toBeNull();
    expect(sessionStorage.getItem('consentGiven')).toBe('true');
    expect(sessionStorage.getItem('EXPERIMENT_ID')).toBe(EXP_ID);
    vi.setSystemTime(Date.now() + JOURNEY_FRESH_MS + 1);
    expect(freshJourney(EXP_ID)).toBeNull();
  });

  it('never hands one login’s journey to another login in the same tab', () => {
    loginAs({ userId: '44444444-4444-4444-8444-444444444444' });
    receiveJourney(journey({ step: 'entry' }));
    loginAs();
    expect(freshJourney(EXP_ID)).toBeNull();
    resetParticipant();
    loginAs({ userId: '44444444-4444-4444-8444-444444444444' });
    expect(freshJourney(EXP_ID)).toBeNull();
  });
});
