import { describe, expect, it } from 'vitest';
import { mmrStudyContent } from './mmr-study.content.js';
import type { ContentBlock } from './types.js';

const text = (blocks: ContentBlock[]) =>
  blocks
    .flatMap((b) => [b.heading ?? '', ...(b.paragraphs ?? []), ...(b.bullets ?? []), ...(b.table?.rows.flat() ?? [])])
    .join('\n');

describe('MMR study content (spec sections 2 and 9)', () => {
  it('has four sections per condition with the spec minimum seconds', () => {
    expect(mmrStudyContent.conditions.mmr.sections.map((s) => s.minSeconds)).toEqual([15, 20, 40, 25]);
    expect(mmrStudyContent.conditions.control.sections.map((s) => s.minSeconds)).toEqual([15, 20, 20, 20]);
    const ids = Object.values(mmrStudyContent.conditions).flatMap((c) => c.sections.map((s) => s.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses the spec statistics and the full risk panel per 100,000', () => {
    const mmr = mmrStudyContent.conditions.mmr.sections.map((s) => text(s.blocks)).join('\n');
    expect(mmr).toContain('92.7% of kindergartners');
    expect(mmr).toContain('2023-24');
    const table = mmrStudyContent.conditions.mmr.sections.flatMap((s) => s.blocks).find((b) => b.table)?.table;
    expect(table?.caption).toContain('per 100,000');
    const values = Object.fromEntries(table?.rows.map(([label = '', value]) => [label.toLowerCase(), value]) ?? []);
    const find = (needle: string) => Object.entries(values).find(([label]) => label.includes(needle))?.[1];
    expect(find('febrile seizure')).toBe('42');
    expect(find('allergic')).toBe('About 1');
    expect(find('hospitalization')).toBe('20,000');
    expect(find('death')).toBe('200');
    expect(find('pneumonia')).toBe('5,000');
    expect(find('brain swelling')).toBe('100');
    const control = mmrStudyContent.conditions.control.sections.map((s) => text(s.blocks)).join('\n');
    expect(control).toContain('In 2023, 89% of infants');
  });

  it('covers every consent point the spec lists', () => {
    const consent = `${text(mmrStudyContent.consent.blocks)}\n${mmrStudyContent.consent.contact}`.toLowerCase();
    for (const point of [
      'purpose',
      '18 years of age or older',
      'child under 5',
      'voluntary',
      'about 10 minutes',
      'paid through prolific',
      'risks',
      'does not provide medical advice',
      'confidentiality',
      'contact the research team',
    ]) {
      expect(consent).toContain(point);
    }
  });

  it('uses the spec labels for the entry choices and the scale', () => {
    expect(mmrStudyContent.entry.questionsLabel).toBe('I have questions or concerns about MMR');
    expect(mmrStudyContent.entry.confirmLabel).toBe('No concerns about the MMR vaccine');
    expect(mmrStudyContent.baseline.labels).toEqual({ min: 'Definitely not', mid: 'Uncertain', max: 'Definitely yes' });
    expect(mmrStudyContent.post.title).toBe('Last Step');
  });
});
