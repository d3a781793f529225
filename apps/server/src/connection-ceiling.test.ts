import { describe, expect, it } from 'vitest';
import { ceilingFromLimits, defaultMaxConnections, FALLBACK_CEILING } from './connection-ceiling.js';

const limits = (soft: string) =>
  `Limit                     Soft Limit           Hard Limit           Units\n` +
  `Max cpu time              unlimited            unlimited            seconds\n` +
  `Max open files            ${soft}                 524288               files\n`;

describe('the default connection ceiling', () => {
  it('stays a margin below the open-file limit: 800 at the common 1,024, more where the process may hold more', () => {
    expect(ceilingFromLimits(limits('1024'))).toBe(800);
    expect(ceilingFromLimits(limits('20000'))).toBe(19_776);
    expect(ceilingFromLimits(limits('256'))).toBe(64);
    expect(ceilingFromLimits(limits('unlimited'))).toBe(65_536);
  });

  it('falls back to 800 when the limit cannot be read', () => {
    expect(ceilingFromLimits(undefined)).toBe(FALLBACK_CEILING);
    expect(ceilingFromLimits('no such line')).toBe(FALLBACK_CEILING);
  });

  it('reads this process’s limit', () => {
    expect(defaultMaxConnections()).toBeGreaterThanOrEqual(64);
  });
});
