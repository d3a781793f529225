import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { DEFAULT_ENV_FILE, REPO_ROOT } from './paths.js';

/**
 * Adds the variables of the settings file to `env`, leaving variables that are already set alone, so
 * `PORT=4000 npm start` still beats a `.env` line. The file is the repository's `.env`, or `ENV_FILE`
 * (relative to the repository root); a missing file is not an error. Returns the file read, if any.
 */
export function loadEnvFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = env.ENV_FILE ? path.resolve(REPO_ROOT, env.ENV_FILE) : DEFAULT_ENV_FILE;
  if (!existsSync(file)) return undefined;
  for (const [key, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (env[key] === undefined && value !== undefined) env[key] = value;
  }
  return file;
}
