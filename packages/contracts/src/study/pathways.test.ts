import { describe, expect, it } from 'vitest';
import { studyDefinition } from './mmr-study.js';
import { SPEC_PATHWAYS, studyPathways } from './pathways.js';
import { validateStudyDefinition } from './schema.js';

// A study names its three pathways in its own words; the pathways and their code keys stay the spec's
// (docs/decisions/0056).

const withPathways = (pathways: unknown) => ({ ...structuredClone(studyDefinition), pathways });
const issuePaths = (value: unknown) => {
  const result = validateStudyDefinition(value);
  return result.ok ? [] : result.issues.map((i) => i.path);
};

describe('study pathways', () => {
  it("gives the spec's three pathways, keys and words for a study that names none (the MMR study)", () => {
    expect(studyPathways(studyDefinition)).toEqual([
      { pathway: 'complete', codeKey: 'complete', ...SPEC_PATHWAYS.complete },
      { pathway: 'confirm', codeKey: 'exitnoqualms', ...SPEC_PATHWAYS.confirm },
      { pathway: 'ceiling', codeKey: 'exitceiling', ...SPEC_PATHWAYS.ceiling },
    ]);
    expect(studyPathways(undefined)).toEqual(studyPathways(studyDefinition));
  });

  it("uses a study's words where it gives them, pathway by pathway, keeping the code keys", () => {
    const confirm = { label: 'bedtime settled', description: 'Given when the bedtime is settled.' };
    const result = validateStudyDefinition(withPathways({ confirm }));
    expect(result.ok).toBe(true);
    const named = studyPathways(result.ok ? result.definition : undefined);
    expect(named.map((p) => [p.pathway, p.codeKey, p.label])).toEqual([
      ['complete', 'complete', 'whole study'],
      ['confirm', 'exitnoqualms', 'bedtime settled'],
      ['ceiling', 'exitceiling', 'baseline intention 7'],
    ]);
  });

  it('refuses a pathway the journey does not have, an empty label, a missing description and a code key', () => {
    expect(issuePaths(withPathways({ dropout: { label: 'left', description: 'Left early.' } }))).toEqual(['pathways']);
    expect(issuePaths(withPathways({ complete: { label: ' ', description: 'x' } }))).toEqual([
      'pathways.complete.label',
    ]);
    expect(issuePaths(withPathways({ ceiling: { label: 'top' } }))).toEqual(['pathways.ceiling.description']);
    expect(issuePaths(withPathways({ confirm: { label: 'a', description: 'b', codeKey: 'exitnoqualms' } }))).toEqual([
      'pathways.confirm',
    ]);
    expect(issuePaths(withPathways({ complete: { label: 'x'.repeat(101), description: 'b' } }))).toEqual([
      'pathways.complete.label',
    ]);
  });
});
