import { CompiledQuery, PostgresAdapter, type Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * PostgreSQL: several statements run as one. Each becomes a member of a WITH clause, named `w0`, `w1`, ...
 * in order, and `select` reads what it needs of them (`select * from w0`). A data-modifying member runs to
 * completion whether or not it is read, every member sees the same snapshot, and the whole is one statement:
 * it commits or fails as one, without a transaction of its own (docs/decisions/0064, 0069). Two members must
 * not change the same row (PostgreSQL applies only one of them), and no member sees another's changes except
 * through its RETURNING. Each member's parameters are renumbered after the ones before it: members are
 * PostgreSQL-compiled statements (`$n` placeholders) with no `$` followed by digits inside a literal.
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

/**
 * Runs writes that each stand alone (none needs another's result, none changes another's row): on PostgreSQL
 * as one statement (one round trip, and atomic), on SQLite one after another (in the process, no round trip).
 */
export async function executeAll(db: Kysely<DB>, statements: readonly CompiledQuery[]): Promise<void> {
  if (statements.length === 0) return;
  if (statements.length > 1 && db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.executeQuery(asOneStatement(statements, 'select 1'));
    return;
  }
  for (const statement of statements) await db.executeQuery(statement);
}
