import { describe, expect, it } from 'vitest';
import { participantBundleSizes } from '../../apps/server/bench/bundle-size.js';

// Issue 14 / DESIGN.md: a participant page's initial JavaScript (the entry, the page's chunk and their static
// imports, gzipped) stays at most 100 KB. `npm test` builds the web app (test:e2e) before this runs; the bench
// prints the same figures (`BENCH_ONLY=bundle npm run bench`). A size, not a timing: it does not vary by machine.
const BUDGET_BYTES = 100 * 1024;

describe('participant pages: initial JavaScript within 100 KB gzipped', () => {
  const sizes = participantBundleSizes();

  it('finds the built web app and every participant page', () => {
    expect(sizes, 'the web app is not built: run `npm run build` first').not.toBeNull();
    const pages = (sizes ?? []).map((s) => s.page);
    for (const page of ['entry (/)', 'ConsentPage', 'PreSurveyPage', 'StaticPage', 'ChatPage', 'CompletionPage']) {
      expect(pages).toContain(page);
    }
  });

  it('keeps each page at or under the budget', () => {
    const over = (sizes ?? []).filter((s) => s.gzipBytes > BUDGET_BYTES);
    expect(over.map((s) => `${s.page}: ${s.gzipBytes} bytes`)).toEqual([]);
  });
});
