import { strFromU8, unzipSync } from 'fflate';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { at, insertExperimentRow, seedParticipant, type SeededParticipant } from '../../../test/factories.js';
import { csvObjects, parseCsv } from './parse-csv.testing.js';
import { readSnapshot } from '../../db/dialect.js';

const FILES = [
  'participants.csv',
  'messages.csv',
  'surveys.csv',
  'page_times.csv',
  'events.csv',
  'codebook.csv',
  'datapackage.json',
];

interface Descriptor {
  created: string;
  studychat: { experiment_id: string; exported_at: string; product_version: string; study_id: string };
  resources: {
    path: string;
    schema: {
      missingValues: string[];
      fields: { name: string; type: string; constraints?: { enum?: string[] }; trueValues?: string[] }[];
    };
  }[];
}

describe.each(TEST_DIALECTS)('data package on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  let experimentId: string;
  let done: SeededParticipant;

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    const db = t().database.db;
    experimentId = (await insertExperimentRow(db)).id;
    done = await seedParticipant(db, experimentId, {
      assignment: {
        prolific_pid: 'PID-1',
        assigned_condition: 'mmr',
        stratum: '3-4',
        consent_given: true,
        consent_timestamp: at(2),
      },
      entry: 'questions',
      baseline: 4,
      pre: { age: '25-34', sex: 'female', political_leaning: 'moderate' },
      views: [{ seconds: 16 }, { seconds: 10, minSeconds: 20 }],
      chat: [
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'NA' },
      ],
    });
    await seedParticipant(db, experimentId, { assignment: { prolific_pid: 'PID-1', created_at: at(3) } });
    await db
      .insertInto('journey_events')
      .values([
        {
          experiment_id: experimentId,
          user_id: done.user.id,
          assignment_id: done.assignment.id,
          type: 'joined',
          step: 'consent',
          data: null,
          created_at: at(1),
        },
        {
          experiment_id: experimentId,
          user_id: done.user.id,
          assignment_id: done.assignment.id,
          type: 'consented',
          step: 'consent',
          data: null,
          created_at: at(2),
        },
        {
          experiment_id: experimentId,
          user_id: done.user.id,
          assignment_id: done.assignment.id,
          type: 'entry',
          step: 'entry',
          data: '{"choice":"questions"}',
          created_at: at(2.5),
        },
      ])
      .execute();
  });

  const get = (url: string, headers = admin.headers) => t().app.inject({ method: 'GET', url, headers });

  async function download(id = experimentId): Promise<Record<string, string>> {
    const res = await get(`/api/experiments/${id}/export-package`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="experiment-${id}-data-package-\\d{8}T\\d{6}Z\\.zip"$`),
    );
    const entries = unzipSync(new Uint8Array(res.rawPayload));
    return Object.fromEntries(Object.entries(entries).map(([name, bytes]) => [name, strFromU8(bytes)]));
  }

  it('holds every file, the CSVs identical to the single downloads built from the same column lists', async () => {
    const files = await download();
    expect(Object.keys(files)).toEqual(FILES);
    for (const file of ['participants.csv', 'messages.csv', 'surveys.csv']) {
      expect(files[file]).toBe((await get(`/api/experiments/${experimentId}/export/${file}`)).body);
    }
    const participants = csvObjects(files['participants.csv'] ?? '');
    expect(participants.map((p) => p.duplicate_prolific_pid)).toEqual(['TRUE', 'TRUE']);
    expect(participants[0]).toMatchObject({
      pathway: 'complete',
      all_sections_min_met: 'FALSE',
      hidden_time_share: '0',
    });
    expect(csvObjects(files['messages.csv'] ?? '').map((m) => m.content)).toEqual(['Hello', 'NA']);
  });

  it('has page times by the server clock for steps and sections, and the event log', async () => {
    const files = await download();
    const times = csvObjects(files['page_times.csv'] ?? '');
    expect(times.map((r) => [r.page, r.section_index, r.server_seconds, r.min_met])).toEqual([
      ['consent', '', '60', ''],
      ['entry', '', '30', ''],
      ['baseline', '', '', ''],
      ['section', '1', '16', 'TRUE'],
      ['section', '2', '10', 'FALSE'],
    ]);
    expect(times[3]).toMatchObject({
      visible_seconds: '16',
      hidden_seconds: '0',
      min_seconds: '15',
      started_at: at(5),
    });
    const events = csvObjects(files['events.csv'] ?? '');
    expect(events.map((e) => [e.type, e.prolific_pid, e.data])).toEqual([
      ['joined', 'PID-1', ''],
      ['consented', 'PID-1', ''],
      ['entry', 'PID-1', '{"choice":"questions"}'],
    ]);
    expect(Number(events[0]?.seq)).toBeLessThan(Number(events[1]?.seq));
  });

  it('describes every file in datapackage.json and the codebook, with types, missing values and enums', async () => {
    const files = await download();
    const descriptor = JSON.parse(files['datapackage.json'] ?? '') as Descriptor;
    expect(descriptor.studychat).toMatchObject({ experiment_id: experimentId, product_version: '1.0.0' });
    expect(descriptor.created).toBe(descriptor.studychat.exported_at);
    expect(descriptor.resources.map((r) => r.path)).toEqual(FILES.filter((f) => f.endsWith('.csv')));
    const codebook = csvObjects(files['codebook.csv'] ?? '');
    for (const resource of descriptor.resources) {
      const header = parseCsv(files[resource.path] ?? '')[0];
      expect(resource.schema.fields.map((f) => f.name)).toEqual(header);
      expect(resource.schema.missingValues).toEqual(['']);
      if (resource.path !== 'codebook.csv') {
        expect(codebook.filter((e) => e.file === resource.path).map((e) => e.column)).toEqual(header);
      }
    }
    const fields = descriptor.resources[0]?.schema.fields ?? [];
    expect(fields.find((f) => f.name === 'condition')).toMatchObject({
      type: 'string',
      constraints: { enum: ['mmr', 'control'] },
    });
    expect(fields.find((f) => f.name === 'chat_complete')).toMatchObject({ type: 'boolean', trueValues: ['TRUE'] });
    expect(fields.find((f) => f.name === 'delta')).toMatchObject({
      type: 'integer',
      constraints: { minimum: -6, maximum: 6 },
    });
  });

  it('answers 404 for an unknown experiment and refuses a participant', async () => {
    const missing = await get(`/api/experiments/${crypto.randomUUID()}/export-package`);
    expect(expectJson(missing, 404)).toEqual({ error: 'Experiment not found', code: 'NOT_FOUND' });
    const participant = await createAndLogin(t());
    const res = await get(`/api/experiments/${experimentId}/export-package`, participant.headers);
    expect(expectJson<{ code: string }>(res, 403).code).toBe('FORBIDDEN');
  });
});

describe.each(TEST_DIALECTS.filter((d) => d === 'postgres'))('data package snapshot on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('is one read-only repeatable-read transaction whose statements are planned for their own parameters', async () => {
    const setting = (db: Kysely<DB>, name: string) =>
      sql<{ value: string }>`select current_setting(${name}) as value`.execute(db).then((r) => r.rows[0]?.value);
    const inside = await readSnapshot(t().database.db, async (trx) => ({
      isolation: await setting(trx, 'transaction_isolation'),
      readOnly: await setting(trx, 'transaction_read_only'),
      plans: await setting(trx, 'plan_cache_mode'),
    }));
    expect(inside).toEqual({ isolation: 'repeatable read', readOnly: 'on', plans: 'force_custom_plan' });
    // Only that transaction: the pool's connections plan as usual afterwards.
    expect(await setting(t().database.db, 'plan_cache_mode')).toBe('auto');
  });
});
