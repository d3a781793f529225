import { CompiledQuery, type Kysely } from 'kysely';
import { dialectKey } from './dialect.js';
import type { DB } from './schema.js';

/**
 * Several writes that stand or fall together, in one round trip where the database allows (docs/decisions/0064,
 * 0069): on PostgreSQL one statement, each write a member of a WITH clause (a data-modifying member runs to
 * completion whether or not it is read, and the whole statement commits or fails as one); on SQLite one
 * transaction (or the caller's).
 *
 * The one invariant the caller keeps: the writes are independent. No write reads another's result or changes a
 * row another changes (PostgreSQL applies only one of two changes to a row within a statement, and every
 * member sees the database as it was before the statement). Returns the rows of the first write's RETURNING
 * (none without one).
 */
export async function atomicWrites<R = unknown>(db: Kysely<DB>, writes: readonly CompiledQuery[]): Promise<R[]> {
  const [first] = writes;
  if (first === undefined) return [];
  if (dialectKey(db) === 'pg') {
    if (writes.length === 1) return (await db.executeQuery(first as CompiledQuery<R>)).rows;
    const select = /\breturning\b/i.test(first.sql) ? 'select * from w0' : 'select 1 where false';
    return (await db.executeQuery(asOneStatement<R>(writes, select))).rows;
  }
  const run = async (trx: Kysely<DB>) => {
    const { rows } = await trx.executeQuery(first as CompiledQuery<R>);
    for (const write of writes.slice(1)) await trx.executeQuery(write);
    return rows;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/**
 * PostgreSQL: the members as one statement, named `w0`, `w1`, ... in order, with `select` reading what it needs
 * of them. Each member's `$n` parameters are renumbered after the ones before it: members are PostgreSQL-compiled
 * statements with no `$` followed by digits inside a literal.
 */
export function asOneStatement<R>(members: readonly CompiledQuery[], select: string): CompiledQuery<R> {
  const parts: string[] = [];
  const parameters: unknown[] = [];
  for (const [i, member] of members.entries()) {
    const shift = parameters.length;
    parts.push(`w${i} as (${member.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`)})`);
    parameters.push(...member.parameters);
  }
  return CompiledQuery.raw(`with ${parts.join(', ')} ${select}`, parameters) as CompiledQuery<R>;
}
