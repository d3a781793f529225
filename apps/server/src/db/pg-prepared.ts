import type pg from 'pg';

/**
 * Named prepared statements on PostgreSQL (docs/decisions/0041-pg-prepared-statements.md): Kysely sends each
 * query as text with its parameters, which PostgreSQL parses and plans every time. A connection that
 * names a statement the first time parses it once and then only binds and runs it, as the SQLite path
 * does with its statement cache. Each pooled connection names up to MAX_NAMED_PER_CONNECTION query texts
 * (the app has a few hundred shapes; texts beyond that run unnamed). A schema change (create, alter,
 * drop) through the pool starts fresh names everywhere, so no statement planned for the old tables is
 * reused with a different result shape.
 */
export const MAX_NAMED_PER_CONNECTION = 500;

/**
 * A statement with more parameters than this runs unnamed, so PostgreSQL plans it for its own values each
 * time. Such statements are lists (`user_id in ($1 … $2000)` in the exports' pages): after five runs of a
 * named statement PostgreSQL may switch to a generic plan, which for those lists measured two to four times
 * the database's CPU (docs/decisions/0050), and their lengths vary, so naming them would only fill the cap.
 * The hot journey statements have a handful of parameters.
 */
export const MAX_NAMED_PARAMETERS = 32;

const DDL = /^\s*(create|alter|drop|truncate|comment|grant|revoke)\b/i;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

export interface PreparedState {
  /** Bumped by every schema change sent through the pool. */
  generation: number;
}

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes a new pooled connection name the statements it runs (call from the pool's `connect` event). */
export function nameStatements(client: pg.PoolClient, state: PreparedState): void {
  const names = new Map<string, string>();
  let generation = state.generation;
  const query = client.query.bind(client) as Query;
  const named: Query = (config, values, callback) => {
    if (typeof config === 'string' && (values === undefined || Array.isArray(values)) && callback === undefined) {
      if (DDL.test(config)) {
        state.generation += 1;
      } else if (PREPARABLE.test(config) && (values?.length ?? 0) <= MAX_NAMED_PARAMETERS) {
        if (generation !== state.generation) {
          names.clear();
          generation = state.generation;
        }
        let name = names.get(config);
        if (name === undefined && names.size < MAX_NAMED_PER_CONNECTION) {
          name = `k${generation}_${names.size}`;
          names.set(config, name);
        }
        if (name !== undefined) return query({ name, text: config, values: values ?? [] });
      }
    }
    return query(config, values, callback);
  };
  (client as unknown as { query: Query }).query = named;
}
