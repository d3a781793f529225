import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { compiledOnce } from '../../src/db/compiled-once.js';
import type { DB } from '../../src/db/schema.js';

// What building a hot statement costs Node, with Kysely each call against `compiledOnce` (docs/decisions/0060,
// 0064): the journey's write statements, the event insert, the row lock and the session check, built N times
// each way, interleaved, in one process (so a busy machine weighs on both alike). Nothing is executed.
//   npx tsx bench/journey/build-cost.ts [--rounds 5] [--n 20000]
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 5);
const n = Number(process.argv[process.argv.indexOf('--n') + 1] || 20000);

const dbs = {
  sqlite: new Kysely<DB>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) }),
  postgres: new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ max: 1 }) }) }),
};

type Build = (db: Kysely<DB>, p: string[]) => CompiledQuery;
const statements: Record<string, { params: unknown[]; build: Build }> = {
  event: {
    params: ['e', 'u', 'a', 'section_opened', 'sections', '{"sectionIndex":0}', '2026-01-01T00:00:00.000Z'],
    build: (db, [e = '', u = '', a = '', type = '', step = '', data = '', at = '']) =>
      db
        .insertInto('journey_events')
        .values({
          experiment_id: e,
          user_id: u,
          assignment_id: a,
          type: type,
          step: step,
          data: data,
          created_at: at,
        })
        .compile(),
  },
  lock: {
    params: ['u', 'e'],
    build: (db, [u = '', e = '']) =>
      db
        .selectFrom('assignments')
        .select('id')
        .where('user_id', '=', u)
        .where('experiment_id', '=', e)
        .forUpdate()
        .compile(),
  },
  sessionCheck: {
    params: ['s', '2026-01-01T00:00:00.000Z'],
    build: (db, [id = '', at = '']) =>
      db
        .selectFrom('sessions')
        .select(['user_id', 'restricted', 'expires_at'])
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', at)
        .compile(),
  },
  surveyInsert: {
    params: ['i', 'u', 'e', 'p', 'pre', '{}', '2026-01-01T00:00:00.000Z'],
    build: (db, [id = '', u = '', e = '', p = '', type = '', responses = '', at = '']) =>
      db
        .insertInto('survey_responses')
        .values({
          id: id,
          user_id: u,
          experiment_id: e,
          prolific_pid: p,
          survey_type: type,
          responses: responses,
          created_at: at,
        })
        .onConflict((oc) => oc.columns(['user_id', 'experiment_id', 'survey_type']).doNothing())
        .returning('id')
        .compile(),
  },
  sectionFinish: {
    params: ['2026-01-01T00:00:00.000Z', 41, 0, 'v'],
    build: (db, [at = '', visible = '', hidden = '', id = '']) =>
      db
        .updateTable('section_views')
        .set({
          finished_at: at,
          visible_seconds: visible as unknown as number,
          hidden_seconds: hidden as unknown as number,
        })
        .where('id', '=', id)
        .returning('id')
        .compile(),
  },
};

for (const [dialect, db] of Object.entries(dbs)) {
  const results: Record<string, { kysely: number[]; once: number[] }> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, s] of Object.entries(statements)) {
      const standIns = s.params.map(String);
      const r = (results[name] ??= { kysely: [], once: [] });
      let t = process.cpuUsage();
      for (let i = 0; i < n; i++) s.build(db, standIns);
      let used = process.cpuUsage(t);
      r.kysely.push((used.user + used.system) / n);
      t = process.cpuUsage();
      for (let i = 0; i < n; i++) compiledOnce(db, `bench:${name}`, (...p) => s.build(db, p), s.params);
      used = process.cpuUsage(t);
      r.once.push((used.user + used.system) / n);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  console.log(`${dialect}: CPU µs per statement built (median of ${rounds} rounds of ${n})`);
  for (const [name, r] of Object.entries(results)) {
    console.log(
      `  ${name.padEnd(14)} Kysely ${median(r.kysely).toFixed(1).padStart(6)}   compiledOnce ${median(r.once).toFixed(2).padStart(6)}`,
    );
  }
}
await dbs.sqlite.destroy();
await dbs.postgres.destroy();
