import { sql } from 'kysely';
import pg from 'pg';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../test/databases.js';
import { isoFromPgTimestamp } from './pg-timestamps.js';

afterAll(dropTestSchemas);

/** What pg's own parser makes of a timestamptz's text, written as the app writes times. */
const viaDate = (text: string) => (pg.types.getTypeParser(1184, 'text')(text) as Date).toISOString();

describe('timestamptz text to ISO', () => {
  it('writes a UTC session value as toISOString would, fraction cut to milliseconds', () => {
    expect(isoFromPgTimestamp('2026-11-23 07:36:48.123+00')).toBe('2026-11-23T07:36:48.123Z');
    expect(isoFromPgTimestamp('2026-11-23 07:36:48.12+00')).toBe('2026-11-23T07:36:48.120Z');
    expect(isoFromPgTimestamp('2026-11-23 07:36:48+00')).toBe('2026-11-23T07:36:48.000Z');
    expect(isoFromPgTimestamp('2026-11-23 07:36:48.123999+00')).toBe('2026-11-23T07:36:48.123Z');
  });

  it('agrees with the Date pg would have built, for any millisecond and microsecond fraction', () => {
    const fraction = fc.oneof(fc.constant(''), fc.stringMatching(/^\.\d{1,6}$/));
    const time = fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59) });
    fc.assert(
      fc.property(time, fraction, (ms, frac) => {
        const text = `${new Date(ms - (ms % 1000)).toISOString().slice(0, 19).replace('T', ' ')}${frac}+00`;
        expect(isoFromPgTimestamp(text)).toBe(viaDate(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads another session time zone through pg parser', () => {
    expect(isoFromPgTimestamp('2026-11-23 08:36:48.5+01')).toBe('2026-11-23T07:36:48.500Z');
    expect(isoFromPgTimestamp('2026-11-23 02:06:48-05:30')).toBe('2026-11-23T07:36:48.000Z');
  });
});

describe.each(TEST_DIALECTS.filter((d) => d === 'postgres'))('timestamptz read on %s', (dialect) => {
  it('comes back as the ISO text that was written, also in a session of another time zone', async () => {
    const database = await createTestDatabase(dialect);
    const written = '2026-11-23T07:36:48.120Z';
    const row = await sql<{ t: unknown; m: unknown }>`select ${written}::timestamptz as t, max(x) as m
      from (values (${written}::timestamptz), ('2026-11-22T00:00:00Z'::timestamptz)) as v(x)`.execute(database.db);
    expect(row.rows).toEqual([{ t: written, m: written }]);
    const inKolkata = await database.db.transaction().execute(async (trx) => {
      await sql`set local time zone 'Asia/Kolkata'`.execute(trx);
      return sql<{ t: unknown }>`select ${written}::timestamptz as t`.execute(trx);
    });
    expect(inKolkata.rows).toEqual([{ t: written }]);
    await database.close();
  });
});
