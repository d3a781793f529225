import { describe, expect, it } from 'vitest';
import {
  credentialCountError,
  credentialsCsv,
  INVALID_COUNT_TEXT,
  parseCredentialCount,
  parseSparePercent,
  prolificCredentialsCsv,
  prolificCsvName,
  withSpares,
} from './credentials';

describe('credential count', () => {
  it.each([
    ['10', 10],
    [' 3 ', 3],
    ['0', 0],
    ['-2', -2],
    ['abc', 0],
    ['', 0],
  ])('reads %j as %d (non-numeric counts as 0)', (input, expected) => {
    expect(parseCredentialCount(input)).toBe(expected);
  });

  it('refuses 0, negative and non-numeric counts with the spec text', () => {
    for (const input of ['0', '-1', 'abc', '']) {
      expect(credentialCountError(parseCredentialCount(input))).toBe(
        'Please enter a valid number of credentials to generate (must be > 0).',
      );
    }
    expect(INVALID_COUNT_TEXT).toBe('Please enter a valid number of credentials to generate (must be > 0).');
    expect(credentialCountError(1)).toBeNull();
  });
});

describe('credentialsCsv', () => {
  it('starts with the header line Username,Password and has one line per credential', () => {
    const csv = credentialsCsv([
      { email: 'p1@study.example', password: 'abc-def' },
      { email: 'p2@study.example', password: 'ghi-jkl' },
    ]);
    expect(csv).toBe('Username,Password\np1@study.example,abc-def\np2@study.example,ghi-jkl\n');
  });

  it('quotes fields holding commas or quotes', () => {
    expect(credentialsCsv([{ email: 'a@b.c', password: 'x,"y' }])).toBe('Username,Password\na@b.c,"x,""y"\n');
  });
});

describe('spares for Prolific', () => {
  it.each([
    ['10', 10],
    [' 25 ', 25],
    ['0', 0],
    ['-5', 0],
    ['abc', 0],
    ['', 0],
    ['250', 100],
  ])('reads the spare share %j as %d%%', (input, expected) => {
    expect(parseSparePercent(input)).toBe(expected);
  });

  it('adds the share of spares, rounded up', () => {
    expect(withSpares(10, 0)).toBe(10);
    expect(withSpares(10, 10)).toBe(11);
    expect(withSpares(10, 15)).toBe(12);
    expect(withSpares(100, 20)).toBe(120);
    expect(withSpares(1, 1)).toBe(2);
    expect(withSpares(3, 100)).toBe(6);
  });
});

describe('prolificCredentialsCsv', () => {
  it('writes one username,password pair per line and no header line, as Prolific takes them', () => {
    const csv = prolificCredentialsCsv([
      { email: 'study-abc@studychat.local', password: 'Pw1' },
      { email: 'study-def@studychat.local', password: 'Pw2' },
    ]);
    expect(csv).toBe('study-abc@studychat.local,Pw1\nstudy-def@studychat.local,Pw2\n');
  });

  it('names the file after the experiment and the local time of the batch', () => {
    const name = prolificCsvName('1a2b3c4d-0000-4000-8000-000000000000', new Date(2026, 10, 22, 9, 5));
    expect(name).toBe('prolific-credentials-1a2b3c4d-20261122-0905.csv');
  });
});
