import { describe, expect, it } from 'vitest';
import { redact } from './redact.js';

describe('redact', () => {
  it('replaces emails and phone numbers', () => {
    expect(redact('Write to anna.smith+mmr@example.co.uk, please')).toBe('Write to [EMAIL], please');
    expect(redact('Call +44 20 7946 0958 or (020) 7946-0958 today')).toBe('Call [PHONE] or [PHONE] today');
    expect(redact('My number is 07700900123.')).toBe('My number is [PHONE].');
  });

  it('replaces names where the text introduces them, and sign-offs', () => {
    expect(redact("Hi, my name is Anna Smith and I'm worried")).toBe("Hi, my name is [NAME] and I'm worried");
    expect(redact("I'm Jo, mother of two")).toBe("I'm [NAME], mother of two");
    expect(redact('My daughter is Mia and she is 1')).toBe('My daughter is [NAME] and she is 1');
    expect(redact('Thanks, Peter')).toBe('Thanks, [NAME]');
  });

  it('leaves ordinary text, numbers and non-names alone', () => {
    for (const text of [
      'Is MMR safe for a 1 year old?',
      'I am not sure about the 2 doses',
      'The study in 1998 was retracted',
      'I am Worried about autism',
      'NA',
      '=1+1',
      'مرحبا',
    ]) {
      expect(redact(text)).toBe(text);
    }
  });
});
