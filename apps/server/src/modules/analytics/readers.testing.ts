import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT } from '../../paths.js';

// The R and pandas code of docs/running-a-study.md, for the tests that read a data package with it.

/** The fenced block of `language` in docs/running-a-study.md that defines `read_package_file`. */
export function readmeSnippet(language: 'r' | 'python'): string {
  const readme = readFileSync(path.join(REPO_ROOT, 'docs', 'running-a-study.md'), 'utf8');
  const blocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].filter(
    (m) => m[1] === language && m[2]?.includes('read_package_file'),
  );
  expect(blocks, `one ${language} block with read_package_file in docs/running-a-study.md`).toHaveLength(1);
  return blocks[0]?.[2] ?? '';
}

export function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, LANG: 'C.UTF-8' } });
  } catch (error) {
    const e = error as { code?: string; stderr?: string };
    if (e.code === 'ENOENT') {
      throw new Error(`${command} is not installed: apt-get install r-base-core python3-pandas (see .ci/run)`);
    }
    throw new Error(`${command} failed: ${e.stderr ?? String(error)}`);
  }
}
