import { Migrator, PostgresAdapter, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { at, buildAssignment, buildExposure, buildExperiment, buildUser } from '../../../test/factories.js';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../../test/databases.js';
import { claimProlificId } from '../../modules/participants/assignments.repository.js';
import { appendEvent } from '../../modules/journey/journey-events.repository.js';
import { migrateToLatest } from '../migrator.js';
import { migrations } from './index.js';

// The journey migrations on a database that already holds a study's data: nothing is lost, "intervention
// completed" is cleared for the exits, and existing Prolific ids are claimed by their earliest assignment.

describe.each(TEST_DIALECTS)('journey migrations over existing data on %s', (dialect) => {
  afterAll(dropTestSchemas);

  it('keeps every row, clears intervention completed for the exits, and claims each Prolific id once', async () => {
    const database = await createTestDatabase(dialect, { migrate: false });
    const { db } = database;
    try {
      // On PostgreSQL the test works in its own schema; Kysely's migration tables must live there too.
      const schema =
        db.getExecutor().adapter instanceof PostgresAdapter
          ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
          : undefined;
      const migrator = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      expect((await migrator.migrateTo('2026-11-20-initial')).error).toBeUndefined();

      const experiment = buildExperiment();
      const users = Array.from({ length: 5 }, () => buildUser());
      await db.insertInto('experiments').values(experiment).execute();
      await db.insertInto('users').values(users).execute();
      const ref = (i: number) => ({ userId: String(users[i]?.id), experimentId: String(experiment.id) });
      const rows = [
        buildAssignment(ref(0), {
          prolific_pid: 'PID-A',
          completion_pathway: 'complete',
          completed_at: at(30),
          intervention_completed_timestamp: at(30),
          created_at: at(1),
        }),
        buildAssignment(ref(1), {
          prolific_pid: 'PID-B',
          completion_pathway: 'confirm',
          completed_at: at(4),
          intervention_completed_timestamp: at(4),
          created_at: at(2),
        }),
        buildAssignment(ref(2), {
          prolific_pid: 'PID-B',
          completion_pathway: 'ceiling',
          completed_at: at(6),
          intervention_completed_timestamp: at(6),
          created_at: at(3),
        }),
        buildAssignment(ref(3), { prolific_pid: null, created_at: at(4) }),
        buildAssignment(ref(4), { prolific_pid: 'PID-B', created_at: at(5) }),
      ];
      await db.insertInto('assignments').values(rows).execute();
      await db
        .insertInto('section_exposures')
        .values(buildExposure(ref(0), 0, { seconds_on_screen: 17.5 }))
        .execute();

      await migrateToLatest(db, schema ? { schema } : {});

      const after = await db.selectFrom('assignments').selectAll().orderBy('created_at').execute();
      expect(after.map((a) => a.id)).toEqual(rows.map((a) => a.id));
      expect(after.map((a) => a.prolific_pid)).toEqual(['PID-A', 'PID-B', 'PID-B', null, 'PID-B']);
      expect(after.map((a) => a.intervention_completed_timestamp !== null)).toEqual([true, false, false, false, false]);
      expect(after.map((a) => a.completion_pathway)).toEqual(['complete', 'confirm', 'ceiling', null, null]);
      expect(after.map((a) => a.completed_at !== null)).toEqual([true, true, true, false, false]);

      const claims = await db.selectFrom('experiment_prolific_ids').selectAll().orderBy('prolific_pid').execute();
      expect(claims.map((c) => [c.prolific_pid, c.assignment_id])).toEqual([
        ['PID-A', rows[0]?.id],
        ['PID-B', rows[1]?.id],
      ]);
      // The id is taken now: no further assignment can claim it.
      const claim = { experimentId: String(experiment.id), prolificPid: 'PID-B', now: at(9) };
      expect(
        await claimProlificId(db, { ...claim, assignmentId: String(rows[4]?.id), userId: String(users[4]?.id) }),
      ).toBe(false);

      const exposures = await db.selectFrom('section_exposures').selectAll().execute();
      expect(exposures).toHaveLength(1);
      expect(Number(exposures[0]?.seconds_on_screen)).toBe(17.5);

      // The event log numbers rows in order.
      for (const type of ['joined', 'consented'] as const) {
        await appendEvent(db, {
          experimentId: String(experiment.id),
          userId: String(users[0]?.id),
          assignmentId: String(rows[0]?.id),
          type,
          step: 'consent',
          createdAt: at(10),
        });
      }
      const events = await db.selectFrom('journey_events').select(['seq', 'type']).orderBy('seq').execute();
      expect(events.map((e) => e.type)).toEqual(['joined', 'consented']);
      expect(Number(events[1]?.seq)).toBeGreaterThan(Number(events[0]?.seq));
    } finally {
      await database.close();
    }
  });
});
