import { describe, expect, it } from 'vitest';
import { studyDefinition } from './mmr-study.js';
import { validateStudyDefinition } from './schema.js';
import { upgradeStudyDefinition, type StoredStudyDefinition } from './upgrade.js';

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

  it("takes a block's table of 1 to 6 columns, each row one cell per column", () => {
    const three = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    three.consent.blocks[0].table = {
      caption: 'Risks',
      columns: ['Event', 'MMR', 'Measles'],
      rows: [['Fever', '1', '2']],
    };
    expect(validateStudyDefinition(three).ok).toBe(true);
    const bad = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    bad.consent.blocks[0].table = {
      caption: 'Risks',
      columns: ['Event', 'MMR'],
      rows: [['Fever', '1', '2'], ['Rash']],
    };
    bad.consent.blocks[1].table = { caption: 'Risks', columns: ['1', '2', '3', '4', '5', '6', '7'], rows: [] };
    const result = validateStudyDefinition(bad);
    expect(result.ok ? [] : result.issues.map((i) => i.path)).toEqual([
      'consent.blocks.0.table.rows.0',
      'consent.blocks.0.table.rows.1',
      'consent.blocks.1.table.columns',
    ]);
  });

  it('refuses a condition without sections and a missing condition', () => {
    const bad = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    bad.conditions.mmr.sections = [];
    delete bad.chat.fallbackGreetings.control;
    const result = validateStudyDefinition(bad);
    const paths = result.ok ? [] : result.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['conditions.mmr.sections', 'chat.fallbackGreetings.control']));
  });

  it('declares the conditions: 2 to 6, ids unique and of the id form, each with a label', () => {
    const paths = (conditionList: unknown) => {
      const result = validateStudyDefinition({ ...clone(), conditionList });
      return result.ok ? [] : result.issues.map((i) => i.path);
    };
    expect(paths([{ id: 'mmr', label: 'Only one' }])).toContain('conditionList');
    const seven = Array.from({ length: 7 }, (_, i) => ({ id: `c${i}`, label: `C ${i}` }));
    expect(paths(seven)).toContain('conditionList');
    expect(
      paths([
        { id: 'mmr', label: 'A' },
        { id: 'mmr', label: 'B' },
      ]),
    ).toContain('conditionList.1.id');
    expect(
      paths([
        { id: 'Mmr', label: 'A' },
        { id: 'control', label: '' },
      ]),
    ).toEqual(expect.arrayContaining(['conditionList.0.id', 'conditionList.1.label']));
    expect(
      paths([
        { id: 'a'.repeat(21), label: 'A' },
        { id: 'control', label: 'B' },
      ]),
    ).toContain('conditionList.0.id');
  });

  it('refuses a per-condition key that is not declared, and a declared condition missing a part, with their paths', () => {
    const bad = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    bad.conditionList.push({ id: 'third', label: 'Third arm' });
    bad.conditions.thrid = bad.conditions.control;
    bad.chat.conditions.third = bad.chat.conditions.control;
    bad.chat.completion = { ghost: { rounds: 2 } };
    const result = validateStudyDefinition(bad);
    expect(result.ok).toBe(false);
    const issues = result.ok ? [] : result.issues;
    expect(issues.map((i) => i.path).sort()).toEqual(
      ['chat.completion.ghost', 'chat.fallbackGreetings.third', 'conditions.third', 'conditions.thrid'].sort(),
    );
    expect(issues.find((i) => i.path === 'conditions.thrid')?.message).toContain('not one of the study');
  });

  it('accepts a study of three conditions with ids of its own, keyed alike in every part', () => {
    const three = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const rename = (part: Record<string, unknown>) => ({ sleep: part.mmr, teeth: part.control, screens: part.control });
    three.conditionList = [
      { id: 'sleep', label: 'Sleep' },
      { id: 'teeth', label: 'Teeth (control)' },
      { id: 'screens', label: 'Screens' },
    ];
    three.conditions = rename(three.conditions);
    three.chat.conditions = rename(three.chat.conditions);
    three.chat.fallbackGreetings = rename(three.chat.fallbackGreetings);
    three.chat.completion = { screens: { rounds: 2 } };
    const result = validateStudyDefinition(three);
    expect(result.ok).toBe(true);
    expect(result.ok && result.definition.conditionList.map((c) => c.id)).toEqual(['sleep', 'teeth', 'screens']);
  });

  it("reads a definition without conditionList as the MMR study's two (versions stored before 0061)", () => {
    const { conditionList: _dropped, ...older } = clone();
    const parsed = validateStudyDefinition(older);
    expect(parsed.ok && parsed.definition.conditionList).toEqual(studyDefinition.conditionList);
    expect(upgradeStudyDefinition(older as StoredStudyDefinition).conditionList).toEqual([
      { id: 'mmr', label: 'Vaccine information (MMR)' },
      { id: 'control', label: 'Car seat information (control)' },
    ]);
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

  it("checks each condition's chat completion rule, which is optional (the spec's 3 rounds and 100 points otherwise)", () => {
    expect(clone().chat.completion).toBeUndefined();
    const good = clone();
    good.chat.completion = { control: { rounds: 1, points: 0 }, mmr: { points: 10_000 } };
    expect(validateStudyDefinition(good)).toMatchObject({
      ok: true,
      definition: { chat: { completion: good.chat.completion } },
    });
    const bad = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    bad.chat.completion = {
      mmr: { rounds: 0, points: 10_001 },
      control: { rounds: 1.5, points: -1, turns: 2 },
    };
    const result = validateStudyDefinition(bad);
    expect(result.ok ? [] : result.issues.map((i) => [i.path, i.message])).toEqual([
      ['chat.completion.mmr.rounds', 'must be 1 to 100'],
      ['chat.completion.mmr.points', 'must be 0 to 10000'],
      ['chat.completion.control.rounds', 'must be a whole number'],
      ['chat.completion.control.points', 'must be 0 to 10000'],
      ['chat.completion.control', expect.stringContaining('turns')],
    ]);
    const unknown = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    unknown.chat.completion = { mmr: { rounds: 2 }, other: {} };
    const refused = validateStudyDefinition(unknown);
    expect(refused.ok ? [] : refused.issues.map((i) => [i.path, i.message])).toEqual([
      ['chat.completion.other', expect.stringContaining('not one of the study')],
    ]);
  });

  it('checks the answer keys, the entry values and the pre-study questions, with their paths', () => {
    const bad = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    bad.entry.key = 'Choice!';
    bad.entry.values = { continue: 'same', exit: 'same' };
    bad.baseline.key = '';
    bad.post.key = 'Post intent';
    bad.pre.questions[0].options = undefined;
    bad.pre.questions[1].key = 'age';
    bad.pre.questions[2] = { key: 'feel', wording: 'How?', type: 'scale', required: true };
    const result = validateStudyDefinition(bad);
    const paths = result.ok ? [] : result.issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'entry.key',
        'entry.values.exit',
        'baseline.key',
        'post.key',
        'pre.questions.0.options',
        'pre.questions.1.key',
        'pre.questions.2.labels',
      ]),
    );
  });

  it('takes the reminder from the second scenario paragraph of a definition written before it was a field', () => {
    const positional = ['Imagine this:', 'The reminder.', 'How do you feel?'];
    const stored = { ...clone(), entry: { ...clone().entry, scenario: positional } } as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    delete stored.entry.reminder;
    const moved = { scenario: ['Imagine this:', 'How do you feel?'], reminder: 'The reminder.' };
    // Sent to the server (a save, the check) and read back from storage alike: the pages show what they did.
    const result = validateStudyDefinition(stored);
    expect(result.ok && result.definition.entry).toMatchObject(moved);
    expect(upgradeStudyDefinition(stored as StoredStudyDefinition).entry).toMatchObject(moved);
    // Its own reminder is kept, the scenario untouched; with neither, the check names the field.
    expect(upgradeStudyDefinition(clone()).entry).toEqual(studyDefinition.entry);
    const bare = { ...clone(), entry: { ...clone().entry, scenario: ['Only one.'] } } as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    delete bare.entry.reminder;
    const refused = validateStudyDefinition(bare);
    expect(refused.ok ? [] : refused.issues).toEqual([{ path: 'entry.reminder', message: 'must not be empty' }]);
    expect(upgradeStudyDefinition(bare as StoredStudyDefinition).entry).toMatchObject({
      scenario: ['Only one.'],
      reminder: '',
    });
  });

  it("fills what a definition from before the keys were data leaves out with the MMR study's", () => {
    const old = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    delete old.entry.key;
    delete old.entry.values;
    delete old.baseline.key;
    delete old.pre;
    delete old.post.key;
    expect(validateStudyDefinition(old)).toEqual({ ok: true, definition: studyDefinition });
    expect(upgradeStudyDefinition(old as StoredStudyDefinition)).toEqual(studyDefinition);
    expect(upgradeStudyDefinition(clone())).toEqual(studyDefinition);
  });

  it("checks a study's own page texts, which are optional (the spec's wording otherwise)", () => {
    const good = clone();
    good.pages = { completion: { thanks: 'Thanks.', instructions: 'Paste the code.' } };
    expect(validateStudyDefinition(good).ok).toBe(true);
    const bad = clone() as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    bad.pages = { staticIntro: { title: '', paragraphs: [] }, extra: 1 };
    const result = validateStudyDefinition(bad);
    const paths = result.ok ? [] : result.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['pages.staticIntro.title', 'pages.staticIntro.paragraphs', 'pages']));
  });
});
