import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Something `npm run build` produces, and what it is built from. */
export interface BuildTarget {
  name: string;
  /** npm workspace whose `build` script produces it. */
  workspace: string;
  /** A file the build writes last (or whose absence means "not built"), relative to the repository root. */
  output: string;
  /** Files and folders the output is built from, relative to the repository root. */
  sources: string[];
}

export const BUILD_TARGETS: BuildTarget[] = [
  {
    name: 'web app',
    workspace: '@studychat/web',
    output: 'apps/web/dist/index.html',
    sources: [
      'apps/web/src',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'packages/contracts/src',
      'package-lock.json',
    ],
  },
  {
    name: 'server',
    workspace: '@studychat/server',
    output: 'apps/server/dist/main.js',
    sources: [
      'apps/server/src',
      'apps/server/scripts',
      'apps/server/package.json',
      'packages/contracts/src',
      'package-lock.json',
    ],
  },
];

/** Tests never change what is built. */
function isSourceFile(name: string): boolean {
  return !/\.test\.tsx?$/.test(name);
}

/** Newest modification time (ms) of the files under `entry` (a file or a folder), or 0 when absent. */
export function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return isSourceFile(entry) ? stat.mtimeMs : 0;
  let newest = 0;
  for (const child of readdirSync(entry, { withFileTypes: true })) {
    if (child.name === 'node_modules' || child.name === 'dist') continue;
    const childPath = path.join(entry, child.name);
    if (child.isDirectory() || child.isFile()) newest = Math.max(newest, newestMtime(childPath));
  }
  return newest;
}

export type Freshness = { stale: false } | { stale: true; reason: string };

/** Whether a target must be (re)built: its output is missing, or a source changed after it was written. */
export function freshness(root: string, target: BuildTarget): Freshness {
  const output = path.join(root, target.output);
  if (!existsSync(output)) return { stale: true, reason: 'not built yet' };
  const builtAt = statSync(output).mtimeMs;
  for (const source of target.sources) {
    if (newestMtime(path.join(root, source)) > builtAt) return { stale: true, reason: `${source} changed` };
  }
  return { stale: false };
}
