import { describe, expect, it } from 'vitest';
import { studyDefinition, type StudyDefinition } from '@studychat/contracts';
import { participantColumns } from './export-columns.js';
import { preColumnNames } from './pre-columns.js';

// participants.csv's pre-survey columns are the pinned version's question keys (docs/decisions/0047).

describe('pre-survey columns', () => {
  it('keeps the MMR study’s columns exactly as before: age, sex, political_leaning after the baseline', () => {
    const names = participantColumns(studyDefinition).map((c) => c.name);
    expect(names.slice(names.indexOf('consent_timestamp'), names.indexOf('section_1_seconds'))).toEqual([
      'consent_timestamp',
      'entry_choice',
      'baseline_intention',
      'age',
      'sex',
      'political_leaning',
    ]);
    const age = participantColumns(studyDefinition).find((c) => c.name === 'age');
    expect(age?.enum).toEqual(['18-24', '25-34', '35-44', '45-54', '55-64', '65+']);
  });

  it('puts pre_ in front of a key that is a fixed column, until the name is free', () => {
    expect(preColumnNames(['age', 'condition', 'pre_condition'], new Set(['condition', 'email']))).toEqual([
      'age',
      'pre_pre_condition',
      'pre_condition',
    ]);
    expect(preColumnNames(['email'], new Set(['email', 'pre_email']))).toEqual(['pre_pre_email']);
  });

  it('never writes a column twice when a pre key collides with a fixed column', () => {
    const study: StudyDefinition = structuredClone(studyDefinition);
    const [age, sex] = study.pre.questions;
    if (!age || !sex) throw new Error('the MMR study has pre questions');
    study.pre.questions = [
      { ...age, key: 'condition' },
      { ...sex, key: 'section_1_seconds' },
    ];
    const columns = participantColumns(study);
    const names = columns.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => n.startsWith('pre_'))).toEqual(['pre_condition', 'pre_section_1_seconds']);
    const record = { pre: { condition: '25-34', section_1_seconds: 'male' }, condition: 'mmr' };
    const value = (name: string) => columns.find((c) => c.name === name)?.value(record as never);
    expect([value('condition'), value('pre_condition'), value('pre_section_1_seconds')]).toEqual([
      'mmr',
      '25-34',
      'male',
    ]);
  });
});
