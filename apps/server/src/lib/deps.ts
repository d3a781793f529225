import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';

/** What the app needs from the outside world; tests pass their own clock and ids (DESIGN.md convention 3). */
export interface AppDeps {
  database: Database;
  clock: () => Date;
  newId: () => string;
  /** Uniform random number in [0, 1); randomisation draws from it. */
  random: () => number;
}

export function defaultDeps(database: Database): AppDeps {
  return { database, clock: () => new Date(), newId: randomUUID, random: Math.random };
}
