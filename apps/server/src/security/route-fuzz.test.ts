import fc from 'fast-check';
import * as contracts from '@studychat/contracts';
import { collectRoutes, type RouteDef } from '@studychat/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, newSession, useTestApp, type TestUser } from '../../test/app.js';
import { TEST_DIALECTS } from '../../test/databases.js';
import {
  arbitraryFromJsonSchema,
  bodyArbitrary,
  encodeSegment,
  jsonSchemaOf,
  stringRecordArbitrary,
  withBadCharacterInEachText,
  type FuzzBody,
  type FuzzPools,
} from '../../test/fuzz.js';
import { insertUserRow } from '../../test/factories.js';
import { createExperiment, participantAt, send } from '../modules/participants/journey.fixtures.js';

// Property-based fuzzing of every route in the contracts (found by collectRoutes, so a route added later
// is fuzzed without anyone listing it): whatever the body, path and query, and whoever calls, the server
// never answers 5xx, and every error is `{ error, code }`.

const ROUTES = collectRoutes(contracts);
/** Requests per route and database; fast-check prints the seed of any failure to replay it. */
const RUNS = 150;
/** Routes after whose success the caller must log in again. */
const SESSION_ENDING = new Set<string>([contracts.authRoutes.logout.path]);

describe('the fuzzer', () => {
  it('finds routes in every route group of the contracts', () => {
    const groups = new Set(ROUTES.map((r) => r.name.split('.')[0]));
    for (const group of [
      'authRoutes',
      'experimentRoutes',
      'participantRoutes',
      'surveyRoutes',
      'chatRoutes',
      'adminRoutes',
    ]) {
      expect(groups).toContain(group);
    }
  });

  it('generates, for every route with a body, bodies that pass its validation (so requests reach the database)', () => {
    const id = crypto.randomUUID();
    const pools: FuzzPools = { ids: { experiment: [id], user: [id], thread: [id] }, emails: ['someone@study.test'] };
    for (const { name, def } of ROUTES) {
      if (!def.body) continue;
      const body = def.body;
      const samples = fc.sample(arbitraryFromJsonSchema(jsonSchemaOf(body), pools, 'valid'), { numRuns: 200 });
      const valid = samples.filter((s) => body.safeParse(s).success).length;
      expect(valid, name).toBeGreaterThan(20);
    }
  });
});

interface Callers {
  admin: TestUser;
  participant: TestUser;
  other: TestUser;
}

describe.each(TEST_DIALECTS)('fuzzing every route on %s', (dialect) => {
  const t = useTestApp(dialect);
  let callers: Callers;
  let pools: FuzzPools;

  beforeAll(async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experimentId = (await createExperiment(t(), admin)).id;
    const participant = await participantAt(t(), experimentId, 'sections');
    const other = await participantAt(t(), experimentId, 'joined');
    const { threadId } = expectJson<{ threadId: string }>(
      await send(t(), participant, 'POST', '/api/chat/initiate', { experimentId }),
      200,
    );
    callers = { admin, participant, other };
    pools = {
      ids: { experiment: [experimentId], user: [admin.id, participant.id, other.id], thread: [threadId] },
      emails: [admin.email, participant.email],
    };
  });

  async function fuzz(def: RouteDef): Promise<void> {
    const who = fc.oneof(
      { weight: 3, arbitrary: fc.constant('admin' as const) },
      { weight: 3, arbitrary: fc.constant('participant' as const) },
      { weight: 1, arbitrary: fc.constant('other' as const) },
      { weight: 1, arbitrary: fc.constant('anonymous' as const) },
    );
    const params = stringRecordArbitrary(def.params, pools, { allOptional: false });
    const query = stringRecordArbitrary(def.query, pools, { allOptional: true });
    const body: fc.Arbitrary<FuzzBody | undefined> =
      def.method === 'GET' ? fc.constant(undefined) : bodyArbitrary(def.body, pools);

    await fc.assert(
      fc.asyncProperty(who, params, query, body, async (caller, p, q, b) => {
        const url = def.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeSegment(p[name] ?? ''));
        const headers: Record<string, string> = caller === 'anonymous' ? {} : { ...callers[caller].headers };
        if (b) headers['content-type'] = 'application/json';
        const res = await t().app.inject({
          method: def.method,
          url,
          query: Object.fromEntries(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined)),
          headers,
          ...(b ? { payload: b.kind === 'json' ? JSON.stringify(b.value) : b.text } : {}),
        });
        expect(res.statusCode, `${def.method} ${url} ${res.body.slice(0, 300)}`).toBeLessThan(500);
        if (res.statusCode >= 400) {
          const reply = res.json<{ error: unknown; code: unknown }>();
          expect(typeof reply.error).toBe('string');
          expect(typeof reply.code).toBe('string');
        }
        if (caller !== 'anonymous' && res.statusCode < 300 && SESSION_ENDING.has(def.path)) {
          callers[caller] = await newSession(t(), callers[caller], caller === 'admin' ? 'admin' : 'participant');
        }
      }),
      { numRuns: RUNS },
    );
  }

  /** A participant who has done nothing yet (so joining writes), with a session but no password hashing. */
  async function newcomer(): Promise<TestUser> {
    const row = await insertUserRow(t().database.db);
    const user = { id: String(row.id), email: row.email, password: '', token: '', headers: { authorization: '' } };
    return newSession(t(), user, 'participant');
  }

  /**
   * Valid bodies with a bad character in each text value in turn, sent by the admin, a participant well
   * into the study and a newcomer (with their own id in the body, so a join would write).
   */
  async function sweepTextFields(def: RouteDef): Promise<void> {
    if (!def.body || def.method === 'GET') return;
    const body = def.body;
    const url = def.path.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
      encodeSegment((name.includes('thread') ? pools.ids.thread[0] : pools.ids.experiment[0]) ?? ''),
    );
    for (const who of ['admin', 'participant', 'newcomer'] as const) {
      const caller = who === 'newcomer' ? await newcomer() : callers[who];
      const own: FuzzPools = { ...pools, ids: { ...pools.ids, user: [caller.id] } };
      const valid = fc
        .sample(arbitraryFromJsonSchema(jsonSchemaOf(body), own, 'valid'), { numRuns: 50 })
        .filter((b) => body.safeParse(b).success)
        .slice(0, 3);
      for (const variant of valid.flatMap(withBadCharacterInEachText)) {
        const res = await t().app.inject({
          method: def.method,
          url,
          headers: { ...caller.headers, 'content-type': 'application/json' },
          payload: JSON.stringify(variant),
        });
        expect(res.statusCode, `${who}: ${def.method} ${url} ${JSON.stringify(variant)}: ${res.body}`).toBeLessThan(
          500,
        );
      }
    }
  }

  it.each(ROUTES.map((r) => [r.name, r.def] as const))('%s never answers 5xx', async (_name, def) => {
    await fuzz(def);
    await sweepTextFields(def);
  });
});
