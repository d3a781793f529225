import { sql, type RawBuilder } from 'kysely';

// Related rows read in the same statement as their parent: a JSON array column (json_agg on PostgreSQL,
// json_group_array on SQLite). Values keep their JSON types: timestamps come back as text (PostgreSQL's
// with an offset), which db/values.ts reads like SQLite's.

/** `json_build_object` / `json_object` over `alias.column` pairs. */
export function jsonObject(pg: boolean, alias: string, columns: readonly string[]): RawBuilder<unknown> {
  const pairs = columns.map((c) => sql`${sql.lit(c)}, ${sql.ref(`${alias}.${c}`)}`);
  return sql`${sql.raw(pg ? 'json_build_object' : 'json_object')}(${sql.join(pairs)})`;
}

/** A JSON array of one object per row, '[]' when there is none. */
export function jsonArray(pg: boolean, object: RawBuilder<unknown>): RawBuilder<unknown> {
  return pg ? sql`coalesce(json_agg(${object}), '[]'::json)` : sql`json_group_array(${object})`;
}

/** pg parses json columns; SQLite returns their text. */
export function parsed<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
