import type { StudyDefinition } from '@studychat/contracts';

// The study version the journey benches pin to their experiment (docs/decisions/0064): the built-in study with
// every section's minimum reading time at BENCH_SECTION_SECONDS, so a load client that reads each section a
// little longer than that meets the minimums on the real clock, and nothing the clock drives (the last-seen
// touch, the chat's partial saves) runs more often than in a real run.

/** Each section's minimum reading time in the bench's study version (the schema's least). */
export const BENCH_SECTION_SECONDS = 1;

/** The definition with every section's minimum at BENCH_SECTION_SECONDS (a copy; the rest unchanged). */
export function benchStudy(definition: StudyDefinition): StudyDefinition {
  const copy = structuredClone(definition);
  for (const condition of Object.values(copy.conditions)) {
    for (const section of condition.sections) section.minSeconds = BENCH_SECTION_SECONDS;
  }
  return copy;
}
