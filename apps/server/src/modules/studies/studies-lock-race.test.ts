import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inBuiltInShape, type StudyDefinition, type StudyVersion } from '@studychat/contracts';
import { createAndLogin, expectJson, testConfig, useTestApp, type TestApp } from '../../../test/app.js';
import { TEST_DIALECTS, type TestDialect } from '../../../test/databases.js';
import type { DB } from '../../db/schema.js';
import type { AppError } from '../../lib/errors.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';
import { findAssignment, insertAssignmentOnce } from '../participants/assignments.repository.js';
import { createAssignment } from '../participants/participants.service.js';
import { findExperimentById } from '../experiments/experiments.repository.js';
import { findVersionRow } from './studies.repository.js';
import { DEFAULT_PRICES } from '../../llm/pricing.js';
import { pinStudyVersion, updateStudyVersion } from './studies.service.js';

const PRICES = DEFAULT_PRICES;
import { createStudySource, DEFAULT_STUDY_VERSION_ID } from './study-source.js';

// The first participant's join against a version edit or a re-pin, interleaved on two connections
// (docs/decisions/0063). One transaction is held open at its critical point (after its in-use check, or after
// the assignment insert) while the other runs; the invariant: a participant's stamped version is the version
// their experiment keeps, with the content it keeps, and no process caches anything else for a locked
// experiment. On PostgreSQL (READ COMMITTED) this needs the row locks; SQLite runs one transaction at a time.

/** A gate: `open()` lets the held transaction go on; `reached` resolves once it is held. */
function gate(dialect: TestDialect) {
  let open!: () => void;
  let reach!: (pid: number | null) => void;
  const released = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<number | null>((resolve) => (reach = resolve));
  return {
    open,
    reached,
    /** Runs inside the held transaction: records its backend (PostgreSQL) and waits for `open`. */
    hold: async (trx: Kysely<DB>) => {
      reach(dialect === 'postgres' ? await backendPid(trx) : null);
      await released;
    },
  };
}

async function backendPid(db: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
  return Number(rows[0]?.pid);
}

/**
 * Resolves once `work` has settled or is waiting for a lock that the held transaction (`holder`) owns. SQLite:
 * the held transaction owns the process's only connection, so `work` cannot run until it ends.
 */
async function settledOrBlocked(t: TestApp, work: Promise<unknown>, holder: number | null): Promise<void> {
  let settled = false;
  void work.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 2000 && !settled; i++) {
    if (holder !== null) {
      const { rows } = await sql<{ n: number | string }>`
        select count(*) as n from pg_stat_activity where ${holder} = any(pg_blocking_pids(pid))`.execute(t.database.db);
      if (Number(rows[0]?.n) > 0) return;
    }
    await new Promise((resolve) => setTimeout(resolve, holder === null ? 0 : 5));
    if (holder === null && i > 20) return;
  }
}

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'done';
  } catch (error) {
    return (error as AppError).code ?? String(error);
  }
}

describe.each(TEST_DIALECTS)('first join against a version edit or a re-pin, interleaved, on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function setup() {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin);
    const clone = async () =>
      expectJson<StudyVersion>(
        await send(t(), admin, 'POST', `/api/admin/study-versions/${DEFAULT_STUDY_VERSION_ID}/clone`, {}),
        201,
      );
    const v = await clone();
    const w = await clone();
    expectJson(
      await send(t(), admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, { study_version_id: v.id }),
      200,
    );
    const participant = await createAndLogin(t());
    const join = () =>
      createAssignment(
        t().deps,
        { userId: participant.id, isAdmin: false },
        { user_id: participant.id, experiment_id: experiment.id, prolific_pid: `P${randomUUID().slice(0, 12)}` },
        testConfig().chatLimits,
      );
    /** The join's insert, by hand in a transaction held open after it (the real repository statement). */
    const heldJoin = (held: ReturnType<typeof gate>) =>
      t()
        .database.db.transaction()
        .execute(async (trx) => {
          const now = new Date().toISOString();
          await insertAssignmentOnce(trx, {
            id: randomUUID(),
            user_id: participant.id,
            experiment_id: experiment.id,
            prolific_pid: `P${randomUUID().slice(0, 12)}`,
            study_id: null,
            session_id: null,
            assigned_condition: null,
            stratum: null,
            condition_assigned_at: null,
            consent_given: false,
            consent_timestamp: null,
            intervention_completed_timestamp: null,
            completion_pathway: null,
            completion_code: null,
            completed_at: null,
            created_at: now,
            updated_at: now,
          });
          await held.hold(trx);
        });
    const stamp = async () => (await findAssignment(t().database.db, participant.id, experiment.id))?.study_version_id;
    const pin = async () => (await findExperimentById(t().database.db, experiment.id))?.study_version_id;
    const definition = async (id: string) => (await findVersionRow(t().database.db, id))?.definition;
    return { experiment, v, w, join, heldJoin, stamp, pin, definition };
  }

  const edited = (definition: StudyDefinition): StudyDefinition => ({ ...definition, title: 'Edited after launch?' });

  it('an edit that checked first commits before the join, which then runs the edited version', async () => {
    const { experiment, v, join, stamp, definition } = await setup();
    const processA = createStudySource(t().database.db);
    const held = gate(dialect);
    const edit = codeOf(
      updateStudyVersion(t().deps, v.id, { definition: edited(inBuiltInShape(v.definition)) }, PRICES, held.hold),
    );
    const holder = await held.reached;
    // The participant joins while the edit is held between its in-use check and its write; right after the
    // join, another process reads the study (and keeps it once the experiment is locked).
    const joined = join().then(async () => ({
      seen: await definition(v.id),
      cached: (await processA(experiment.id)).definition,
    }));
    await settledOrBlocked(t(), joined, holder);
    held.open();
    expect(await edit).toBe('done');
    const { seen, cached } = await joined;

    const final = await definition(v.id);
    expect(await stamp()).toBe(v.id);
    // What the participant could read when their join committed is what the version keeps.
    expect(seen).toBe(final);
    expect(JSON.parse(final ?? '{}').title).toBe('Edited after launch?');
    expect(cached.title).toBe('Edited after launch?');
    expect((await processA(experiment.id)).definition.title).toBe('Edited after launch?');
    expect((await createStudySource(t().database.db)(experiment.id)).definition.title).toBe('Edited after launch?');
  });

  it('an edit that comes while a first join is uncommitted waits for it and is refused', async () => {
    const { experiment, v, heldJoin, stamp, definition } = await setup();
    const before = await definition(v.id);
    const held = gate(dialect);
    const joined = heldJoin(held);
    const holder = await held.reached;
    const edit = codeOf(
      updateStudyVersion(t().deps, v.id, { definition: edited(inBuiltInShape(v.definition)) }, PRICES),
    );
    await settledOrBlocked(t(), edit, holder);
    held.open();
    await joined;
    expect(await edit).toBe('STUDY_VERSION_IN_USE');
    expect(await stamp()).toBe(v.id);
    expect(await definition(v.id)).toBe(before);
    expect((await createStudySource(t().database.db)(experiment.id)).definition.title).toBe(v.definition.title);
  });

  it('a re-pin that checked first commits before the join, which is stamped with the new pin', async () => {
    const { experiment, w, join, stamp, pin } = await setup();
    const processA = createStudySource(t().database.db);
    const held = gate(dialect);
    const repin = codeOf(pinStudyVersion(t().deps, experiment.id, w.id, PRICES, held.hold));
    const holder = await held.reached;
    const joined = join().then(async () => (await processA(experiment.id)).versionId);
    await settledOrBlocked(t(), joined, holder);
    held.open();
    expect(await repin).toBe('done');
    const cachedVersion = await joined;

    expect(await pin()).toBe(w.id);
    expect(await stamp()).toBe(w.id);
    expect(cachedVersion).toBe(w.id);
    expect((await processA(experiment.id)).versionId).toBe(w.id);
  });

  it('a re-pin that comes while a first join is uncommitted waits for it and is refused', async () => {
    const { experiment, v, w, heldJoin, stamp, pin } = await setup();
    const held = gate(dialect);
    const joined = heldJoin(held);
    const holder = await held.reached;
    const repin = codeOf(pinStudyVersion(t().deps, experiment.id, w.id, PRICES));
    await settledOrBlocked(t(), repin, holder);
    held.open();
    await joined;
    expect(await repin).toBe('EXPERIMENT_HAS_PARTICIPANTS');
    expect(await pin()).toBe(v.id);
    expect(await stamp()).toBe(v.id);
  });
});
