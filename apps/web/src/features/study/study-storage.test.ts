import { describe, expect, it } from 'vitest';
import { resolvePathway } from './completion/resolve-pathway';
import {
  readCachedStatus,
  readFlag,
  readStudySession,
  removeSession,
  setFlag,
  writeCachedStatus,
  writeSession,
} from './study-storage';

describe('study session storage', () => {
  it('reads an empty session as nothing done', () => {
    expect(readStudySession()).toEqual({
      experimentId: null,
      consentGiven: false,
      entrySubmitted: false,
      baselineIntention: null,
      preSurveySubmitted: false,
      assignedCondition: null,
      staticContentReviewed: false,
      experimentCompleted: false,
    });
  });

  it('uses the spec key names and reads flags as true only when set', () => {
    writeSession('EXPERIMENT_ID', 'exp-1');
    setFlag('consentGiven');
    writeSession('baselineIntention', '5');
    writeSession('assignedCondition', 'control');
    sessionStorage.setItem('entrySubmitted', 'yes');
    expect(sessionStorage.getItem('EXPERIMENT_ID')).toBe('exp-1');
    expect(sessionStorage.getItem('consentGiven')).toBe('true');
    expect(readFlag('entrySubmitted')).toBe(false);
    expect(readStudySession()).toMatchObject({
      experimentId: 'exp-1',
      consentGiven: true,
      baselineIntention: '5',
      assignedCondition: 'control',
    });
    removeSession('consentGiven');
    expect(readFlag('consentGiven')).toBe(false);
  });

  it('keeps a condition id in form (the guard checks it against the study) and ignores anything else', () => {
    writeSession('assignedCondition', 'placebo');
    expect(readStudySession().assignedCondition).toBe('placebo');
    writeSession('assignedCondition', 'Not an id!');
    expect(readStudySession().assignedCondition).toBeNull();
  });

  it('caches the completion status under completion_status_{experimentId}', () => {
    expect(readCachedStatus('exp-1')).toBeNull();
    writeCachedStatus('exp-1', { alreadyCompleted: true, completionPathway: 'ceiling', completionCode: 'CE-1' });
    expect(JSON.parse(sessionStorage.getItem('completion_status_exp-1') ?? '')).toMatchObject({
      alreadyCompleted: true,
      completionPathway: 'ceiling',
    });
    expect(readCachedStatus('exp-1')).toEqual({
      alreadyCompleted: true,
      completionPathway: 'ceiling',
      completionCode: 'CE-1',
    });
    sessionStorage.setItem('completion_status_exp-2', 'garbage');
    expect(readCachedStatus('exp-2')).toBeNull();
  });
});

describe('resolvePathway', () => {
  it.each([
    {
      case: 'navigation state wins',
      state: { pathway: 'confirm' },
      query: 'ceiling',
      stored: 'complete',
      expected: 'confirm',
    },
    { case: 'then the query', state: null, query: 'ceiling', stored: 'complete', expected: 'ceiling' },
    { case: 'then the stored status', state: undefined, query: null, stored: 'complete', expected: 'complete' },
    {
      case: 'invalid values are skipped',
      state: { pathway: 'bogus' },
      query: 'nope',
      stored: 'confirm',
      expected: 'confirm',
    },
    { case: 'nothing known', state: {}, query: null, stored: null, expected: null },
  ] as const)('$case', ({ state, query, stored, expected }) => {
    expect(resolvePathway(state, query, stored)).toBe(expected);
  });
});
