import { describe, expect, it } from 'vitest';
import { studyDefinition } from './mmr-study.js';
import { validateStudyDefinition } from './schema.js';

const clone = () => structuredClone(studyDefinition);

describe('StudyDefinitionSchema', () => {
  it('accepts the MMR study unchanged (the seeded default definition)', () => {
    const result = validateStudyDefinition(clone());
    expect(result).toEqual({ ok: true, definition: studyDefinition });
  });

  it('names the path of every problem', () => {
    const bad = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    bad.conditions.mmr.sections[1].minSeconds = 0;
    bad.conditions.control.sections[1].id = bad.conditions.control.sections[0].id;
    bad.consent.title = '';
    bad.chat.conditions.mmr.systemPrompt = 'a\u0000b';
    bad.extra = true;
    const result = validateStudyDefinition(bad);
    expect(result.ok).toBe(false);
    const paths = result.ok ? [] : result.issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'conditions.mmr.sections.1.minSeconds',
        'conditions.control.sections.1.id',
        'consent.title',
        'chat.conditions.mmr.systemPrompt',
        '',
      ]),
    );
  });

  it('refuses a condition without sections and a missing condition', () => {
    const bad = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    bad.conditions.mmr.sections = [];
    delete bad.chat.fallbackGreetings.control;
    const result = validateStudyDefinition(bad);
    const paths = result.ok ? [] : result.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['conditions.mmr.sections', 'chat.fallbackGreetings.control']));
  });

  it("checks each condition's chat model settings, which are optional (older versions have none)", () => {
    const good = clone();
    good.chat.conditions.control.settings = {
      model: 'claude-haiku-4-5',
      temperature: 0.4,
      replyTokens: 400,
      thinkingBudget: 0,
    };
    expect(validateStudyDefinition(good).ok).toBe(true);
    const bad = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    bad.chat.conditions.mmr.settings = { model: 'two words', temperature: 3, replyTokens: 10.5, thinkingBudget: 500 };
    const result = validateStudyDefinition(bad);
    const paths = result.ok ? [] : result.issues.map((i) => i.path);
    expect(paths).toEqual(
      ['model', 'temperature', 'replyTokens', 'thinkingBudget'].map((key) => `chat.conditions.mmr.settings.${key}`),
    );
  });
});
