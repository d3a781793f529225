import { CompiledQuery, type Kysely } from 'kysely';
import { dialectKey } from './dialect.js';
import type { DB } from './schema.js';

/**
 * A hot read (the session check, the journey's facts, the chat thread, the completion status): built and compiled
 * once per dialect, then run with each call's parameters (docs/decisions/0060). Kysely builds and compiles every
 * query afresh; for the large reads (JSON subqueries over many columns) that was a third of a read's CPU. Other
 * statements are plain Kysely.
 *
 * `build` receives a stand-in for each named parameter and must bind each one as a parameter (any order, any
 * number of times) and inline nothing else that varies: the first build checks that every bound value is a
 * stand-in and that none is in the text, and throws otherwise.
 */
export function hotRead<const N extends readonly string[], R>(
  name: string,
  params: N,
  build: (db: Kysely<DB>, p: Record<N[number], string>) => CompiledQuery<R>,
): (db: Kysely<DB>, values: Record<N[number], string>) => Promise<R[]> {
  const compiled = new Map<string, { sql: string; order: N[number][] }>();
  const prepare = (db: Kysely<DB>) => {
    const key = dialectKey(db);
    let entry = compiled.get(key);
    if (entry === undefined) {
      const standIns = Object.fromEntries(params.map((p) => [p, `\u0000${name}:${p}\u0000`])) as Record<
        N[number],
        string
      >;
      const byStandIn = new Map<unknown, N[number]>(params.map((p: N[number]) => [standIns[p], p]));
      const query = build(db, standIns);
      const order = query.parameters.map((value) => byStandIn.get(value));
      if (order.some((p) => p === undefined) || query.sql.includes('\u0000')) {
        throw new Error(`${name}: every parameter must be a named stand-in, bound as a parameter`);
      }
      entry = { sql: query.sql, order: order as N[number][] };
      compiled.set(key, entry);
    }
    return entry;
  };
  return async (db, values) => {
    const { sql, order } = prepare(db);
    const { rows } = await db.executeQuery(
      CompiledQuery.raw(
        sql,
        order.map((p) => values[p]),
      ) as CompiledQuery<R>,
    );
    return rows;
  };
}
