import { DEFAULT_SECTION_SECONDS, type StaticSection } from './types.js';

/** A section's minimum seconds: its own when set to a positive number, else 30 (spec section 9). */
export function sectionMinSeconds(section: Pick<StaticSection, 'minSeconds'>): number {
  return Number.isFinite(section.minSeconds) && section.minSeconds > 0
    ? Math.ceil(section.minSeconds)
    : DEFAULT_SECTION_SECONDS;
}
