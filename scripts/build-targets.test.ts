import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_TARGETS, freshness, newestMtime, type BuildTarget } from './build-targets.js';

const target: BuildTarget = {
  name: 'thing',
  workspace: 'w',
  output: 'out/index.html',
  sources: ['src', 'config.ts', 'missing.ts'],
};

/** A file with a given modification time (seconds since the epoch). */
function write(root: string, file: string, mtime: number): void {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, file);
  utimesSync(full, mtime, mtime);
}

function project(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'freshness-'));
  write(root, 'src/a.ts', 1000);
  write(root, 'src/deep/b.ts', 1500);
  write(root, 'config.ts', 1200);
  return root;
}

describe('build freshness (npm start builds only what is stale)', () => {
  it('builds when the output is missing', () => {
    expect(freshness(project(), target)).toEqual({ stale: true, reason: 'not built yet' });
  });

  it('skips the build when the output is newer than every source', () => {
    const root = project();
    write(root, 'out/index.html', 2000);
    expect(freshness(root, target)).toEqual({ stale: false });
  });

  it('builds when any source, however deep, changed after the output', () => {
    const root = project();
    write(root, 'out/index.html', 2000);
    write(root, 'src/deep/b.ts', 2500);
    expect(freshness(root, target)).toEqual({ stale: true, reason: 'src changed' });
    write(root, 'src/deep/b.ts', 1500);
    write(root, 'config.ts', 2001);
    expect(freshness(root, target)).toEqual({ stale: true, reason: 'config.ts changed' });
  });

  it('ignores tests, node_modules and dist folders inside the sources', () => {
    const root = project();
    write(root, 'out/index.html', 2000);
    write(root, 'src/a.test.ts', 3000);
    write(root, 'src/view.test.tsx', 3000);
    write(root, 'src/node_modules/x/index.js', 3000);
    write(root, 'src/dist/old.js', 3000);
    expect(newestMtime(path.join(root, 'src')) / 1000).toBe(1500);
    expect(freshness(root, target)).toEqual({ stale: false });
  });

  it('covers both builds, each from its own workspace, with the contracts as a source of both', () => {
    expect(BUILD_TARGETS.map((t) => t.workspace)).toEqual(['@studychat/web', '@studychat/server']);
    for (const t of BUILD_TARGETS) expect(t.sources).toContain('packages/contracts/src');
  });
});
