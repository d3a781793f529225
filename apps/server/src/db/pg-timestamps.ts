import pg from 'pg';

// PostgreSQL timestamptz values are read as the same ISO-8601 UTC text SQLite stores (`toISOString`'s
// form, millisecond precision), not as Date objects (docs/decisions/0050-package-under-budget.md): pg's
// default parser builds a Date from every value with regular expressions, and most readers then turn it
// back into the same text (db/values.ts). Both dialects now give db/values.ts the same kind of value.

/** OID of timestamptz, the type of every timestamp column (migrations write `timestamptz` on PostgreSQL). */
const TIMESTAMPTZ_OID = 1184;

/** PostgreSQL's text form of a timestamptz in a UTC session with DateStyle ISO: `2026-11-23 07:36:48.12+00`. */
const UTC_TEXT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

const defaultParser = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => Date | number | null;

/**
 * A timestamptz's text as `toISOString` writes it. The fraction is cut to milliseconds, as a Date would cut
 * it; any other form (another session time zone, a year beyond 9999) goes through pg's own parser.
 */
export function isoFromPgTimestamp(text: string): string {
  // The app's own times (milliseconds, so three fraction digits), without a regular expression.
  if (text.length === 26 && text.charCodeAt(10) === 32 && text.charCodeAt(19) === 46 && text.endsWith('+00')) {
    return `${text.slice(0, 10)}T${text.slice(11, 23)}Z`;
  }
  const match = UTC_TEXT.exec(text);
  if (match) return `${match[1]}T${match[2]}.${(match[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  const parsed = defaultParser(text);
  return parsed instanceof Date && !Number.isNaN(parsed.getTime()) ? parsed.toISOString() : text;
}

/** The pool's type parsers: pg's defaults, timestamptz as ISO text. */
export const pgTypeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ_OID && (format ?? 'text') === 'text'
      ? isoFromPgTimestamp
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
