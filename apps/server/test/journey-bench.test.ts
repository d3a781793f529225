import { studyDefinition, StudyDefinitionSchema } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { BENCH_SECTION_SECONDS, benchStudy } from '../bench/journey/bench-study.js';
import { journeyVerdict } from '../bench/journey/verdict.js';

// The journey bench's own rules (bench/journey, docs/decisions/0064): a skipped database is never "within
// budget", and the study it pins is the built-in one with short section minimums, valid as any saved version.

describe('journey bench verdict', () => {
  it('says a skipped PostgreSQL run was not measured and never calls the run within budget', () => {
    const line = journeyVerdict(true, ['PostgreSQL']);
    expect(line).toContain('NOT MEASURED on PostgreSQL');
    expect(line).not.toMatch(/^everything within budget/);
    expect(journeyVerdict(false, ['PostgreSQL'])).toMatch(/^SOMETHING OVER BUDGET.*NOT MEASURED on PostgreSQL/);
  });

  it('is within budget only when every asked database ran within budget', () => {
    expect(journeyVerdict(true, [])).toBe('everything within budget');
    expect(journeyVerdict(false, [])).toMatch(/^SOMETHING OVER BUDGET/);
  });
});

describe('journey bench study', () => {
  it('is the built-in study with every section at the short minimum, and a valid definition', () => {
    const study = benchStudy(studyDefinition);
    const minimums = Object.values(study.conditions).flatMap((c) => c.sections.map((s) => s.minSeconds));
    expect(minimums.length).toBeGreaterThan(0);
    expect(new Set(minimums)).toEqual(new Set([BENCH_SECTION_SECONDS]));
    expect(StudyDefinitionSchema.safeParse(study).success).toBe(true);
    // The built-in definition itself is untouched.
    expect(Object.values(studyDefinition.conditions).some((c) => c.sections.some((s) => s.minSeconds > 1))).toBe(true);
  });
});
