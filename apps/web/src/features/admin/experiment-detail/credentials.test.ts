import { describe, expect, it } from 'vitest';
import { credentialCountError, credentialsCsv, INVALID_COUNT_TEXT, parseCredentialCount } from './credentials';

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
