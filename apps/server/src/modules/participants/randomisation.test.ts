import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { STRATA, type Condition, type Stratum } from '@studychat/contracts';
import { createDatabase } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { blockSize, permutedBlock, stratumFor } from './permuted-block.js';

const TWO = ['mmr', 'control'];
const BLOCK_SIZE = blockSize(TWO);
import { assignCondition } from './randomisation.service.js';

/** A small seeded generator (mulberry32), so randomisation runs are reproducible. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe('permuted blocks', () => {
  it('hold each condition twice', () => {
    const random = seeded(1);
    for (let i = 0; i < 100; i++) {
      const block = permutedBlock(TWO, random);
      expect(block).toHaveLength(BLOCK_SIZE);
      expect(block.filter((c) => c === 'mmr')).toHaveLength(2);
      expect(block.filter((c) => c === 'control')).toHaveLength(2);
    }
  });

  it('are reproducible from the same seed and reach all six orders', () => {
    const a = seeded(7);
    const b = seeded(7);
    const orders = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const block = permutedBlock(TWO, a).join(',');
      expect(permutedBlock(TWO, b).join(',')).toBe(block);
      orders.add(block);
    }
    expect(orders.size).toBe(6);
  });

  it('stay valid for a source at the edges of [0, 1]', () => {
    for (const value of [0, 0.999999, 1]) {
      const block = permutedBlock(TWO, () => value);
      expect([...block].sort()).toEqual(['control', 'control', 'mmr', 'mmr']);
    }
  });

  it("hold each of a study's own conditions twice: three conditions make blocks of six, in all 90 orders", () => {
    const three = ['sleep', 'teeth', 'screens'];
    expect(blockSize(three)).toBe(6);
    const random = seeded(3);
    const orders = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const block = permutedBlock(three, random);
      expect(block).toHaveLength(6);
      for (const c of three) expect(block.filter((x) => x === c)).toHaveLength(2);
      orders.add(block.join(','));
    }
    // 6! / (2! 2! 2!) = 90 distinct orders.
    expect(orders.size).toBe(90);
  });

  it('build blocks of any declared size: six conditions make blocks of twelve', () => {
    const six = ['a', 'b', 'c', 'd', 'e', 'f'];
    const block = permutedBlock(six, seeded(5));
    expect(block).toHaveLength(12);
    expect([...block].sort()).toEqual(six.flatMap((c) => [c, c]).sort());
  });

  it('map baseline intentions to strata, with no stratum for the ceiling', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 0].map(stratumFor)).toEqual(['1-2', '1-2', '3-4', '3-4', '5-6', '5-6', null, null]);
  });
});

/** Inserts a participant who has consented and answered the entry, baseline and pre-survey: at the assignment step. */
async function seedPending(db: Kysely<DB>, experimentId: string, intention: number): Promise<string> {
  const userId = randomUUID();
  const now = '2026-11-20T10:00:00.000Z';
  await db
    .insertInto('users')
    .values({
      id: userId,
      email: `${userId}@study.test`,
      password_hash: 'x',
      is_admin: false,
      metadata: null,
      created_at: now,
      updated_at: now,
      last_login_at: null,
    })
    .execute();
  await db
    .insertInto('assignments')
    .values({
      id: randomUUID(),
      user_id: userId,
      experiment_id: experimentId,
      prolific_pid: `P-${userId.slice(0, 8)}`,
      study_id: null,
      session_id: null,
      assigned_condition: null,
      stratum: null,
      condition_assigned_at: null,
      consent_given: true,
      consent_timestamp: now,
      intervention_completed_timestamp: null,
      completion_pathway: null,
      completion_code: null,
      completed_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const answers: [string, Record<string, string>][] = [
    ['entry', { choice: 'questions' }],
    ['baseline', { vaccination_intention: String(intention) }],
    ['pre', { age: '25-34', sex: 'female', political_leaning: 'moderate' }],
  ];
  await db
    .insertInto('survey_responses')
    .values(
      answers.map(([survey_type, responses]) => ({
        id: randomUUID(),
        user_id: userId,
        experiment_id: experimentId,
        prolific_pid: null,
        survey_type,
        responses: JSON.stringify(responses),
        created_at: now,
      })),
    )
    .execute();
  return userId;
}

async function seedExperiment(db: Kysely<DB>): Promise<string> {
  const id = randomUUID();
  const now = '2026-11-20T10:00:00.000Z';
  await db
    .insertInto('experiments')
    .values({
      id,
      name: 'Randomisation',
      description: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

async function claimedSlots(db: Kysely<DB>, experimentId: string, stratum: Stratum) {
  return db
    .selectFrom('allocation_slots')
    .innerJoin('assignments', 'assignments.id', 'allocation_slots.assignment_id')
    .select([
      'allocation_slots.seq',
      'allocation_slots.condition',
      'allocation_slots.assignment_id',
      'assignments.assigned_condition',
      'assignments.stratum',
    ])
    .where('allocation_slots.experiment_id', '=', experimentId)
    .where('allocation_slots.stratum', '=', stratum)
    .orderBy('allocation_slots.seq')
    .execute();
}

function imbalance(conditions: string[]): number {
  const mmr = conditions.filter((c) => c === 'mmr').length;
  return Math.abs(mmr - (conditions.length - mmr));
}

describe.each(TEST_DIALECTS)('balanced randomisation on %s', (dialect) => {
  const t = useTestApp(dialect, { deps: { random: seeded(20261121) } });

  it('keeps every stratum within 2 at every arrival and exactly balanced after each complete block', async () => {
    const { db } = t().database;
    const experimentId = await seedExperiment(db);
    const perStratum = 200;
    const seen: Record<Stratum, Condition[]> = { '1-2': [], '3-4': [], '5-6': [] };
    // Arrivals interleave across strata, as they would in a live study.
    for (let i = 0; i < perStratum * 3; i++) {
      const intention = [1, 4, 6, 2, 3, 5][i % 6] ?? 1;
      const userId = await seedPending(db, experimentId, intention);
      const assignment = await assignCondition(t().deps, userId, experimentId);
      const stratum = stratumFor(intention);
      if (!stratum || !assignment.assigned_condition) throw new Error('not assigned');
      expect(assignment.stratum).toBe(stratum);
      const list = seen[stratum];
      list.push(assignment.assigned_condition);
      expect(imbalance(list)).toBeLessThanOrEqual(2);
      if (list.length % BLOCK_SIZE === 0) expect(imbalance(list)).toBe(0);
    }
    for (const stratum of STRATA) {
      expect(seen[stratum]).toHaveLength(perStratum);
      const slots = await claimedSlots(db, experimentId, stratum);
      expect(slots.map((s) => s.seq)).toEqual(Array.from({ length: perStratum }, (_, i) => i + 1));
      expect(slots.map((s) => s.condition)).toEqual(seen[stratum]);
      for (const slot of slots) expect(slot.assigned_condition).toBe(slot.condition);
    }
  });

  it('lets concurrent arrivals each claim one slot, with no duplicates and still balanced', async () => {
    const { db } = t().database;
    const experimentId = await seedExperiment(db);
    const users = await Promise.all(Array.from({ length: 30 }, () => seedPending(db, experimentId, 3)));
    // On PostgreSQL, a second connection pool stands in for a second server process.
    const second =
      dialect === 'postgres'
        ? createDatabase({
            databaseUrl: process.env.TEST_DATABASE_URL,
            sqliteFile: '',
            pgSchema: await currentSchema(db),
            pgPoolSize: 4,
          })
        : t().database;
    const depsB: AppDeps = { ...t().deps, database: second };
    try {
      const results = await Promise.all(
        users.map((userId, i) => assignCondition(i % 2 === 0 ? t().deps : depsB, userId, experimentId)),
      );
      expect(new Set(results.map((a) => a.id)).size).toBe(30);
      const slots = await claimedSlots(db, experimentId, '3-4');
      expect(slots.map((s) => s.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(new Set(slots.map((s) => s.assignment_id)).size).toBe(30);
      for (const slot of slots) {
        const result = results.find((a) => a.id === slot.assignment_id);
        expect(result?.assigned_condition).toBe(slot.condition);
      }
      expect(imbalance(slots.map((s) => s.condition))).toBeLessThanOrEqual(2);
      expect(imbalance(slots.slice(0, 28).map((s) => s.condition))).toBe(0);
      // Blocks were appended once each despite the race: 8 blocks of 4, nothing more.
      const total = await db
        .selectFrom('allocation_slots')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('experiment_id', '=', experimentId)
        .executeTakeFirstOrThrow();
      expect(Number(total.n)).toBe(32);
    } finally {
      if (second !== t().database) await second.close();
    }
  });

  it('gives one condition to a participant whose requests race each other', async () => {
    const { db } = t().database;
    const experimentId = await seedExperiment(db);
    const userId = await seedPending(db, experimentId, 6);
    const results = await Promise.all(Array.from({ length: 6 }, () => assignCondition(t().deps, userId, experimentId)));
    expect(new Set(results.map((a) => `${a.assigned_condition}|${a.condition_assigned_at}`)).size).toBe(1);
    const slots = await claimedSlots(db, experimentId, '5-6');
    expect(slots).toHaveLength(1);
    expect(slots[0]?.condition).toBe(results[0]?.assigned_condition);
  });
});

async function currentSchema(db: Kysely<DB>): Promise<string> {
  const { sql } = await import('kysely');
  const result = await sql<{ s: string }>`select current_schema() as s`.execute(db);
  const schema = result.rows[0]?.s;
  if (!schema) throw new Error('no current schema');
  return schema;
}
