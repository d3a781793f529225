import { CompiledQuery, PostgresAdapter, type Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * Hot statements whose text depends only on the dialect, built and compiled once per dialect and then run
 * with each call's parameters (docs/decisions/0060-journey-cpu.md). Kysely builds and compiles every query
 * afresh; for the journey's large reads (JSON subqueries over many columns) that was a third of a read's CPU.
 *
 * `build` receives one stand-in per parameter and returns the compiled statement, the same whatever the values
 * are (no branching on them: a variant is a statement of its own name); each stand-in must be bound once, in
 * order, as a parameter. The first build checks this and throws otherwise, so a statement that inlines a
 * value or reorders its parameters never runs with another call's values.
 */
const texts = new Map<string, string>();

export function compiledOnce<R>(
  db: Kysely<DB>,
  name: string,
  build: (...params: string[]) => CompiledQuery<R>,
  params: readonly unknown[],
): CompiledQuery<R> {
  const key = `${db.getExecutor().adapter instanceof PostgresAdapter ? 'pg' : 'sqlite'}:${name}`;
  let text = texts.get(key);
  if (text === undefined) {
    const standIns = params.map((_, i) => `\u0000${name}:${i}\u0000`);
    const compiled = build(...standIns);
    const bound = compiled.parameters;
    if (
      bound.length !== standIns.length ||
      standIns.some((s, i) => bound[i] !== s) ||
      compiled.sql.includes('\u0000')
    ) {
      throw new Error(
        `${name}: each parameter must be bound once, in order (bound: ${bound.length} of ${params.length})`,
      );
    }
    text = compiled.sql;
    texts.set(key, text);
  }
  return CompiledQuery.raw(text, [...params]) as CompiledQuery<R>;
}
