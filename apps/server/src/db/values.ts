// Row values from either database become API values here, and nowhere else (DESIGN.md convention 4).

/** An ISO-8601 UTC string as `toISOString` writes it (what the app stores on SQLite). */
const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Timestamp column (Date from PostgreSQL, ISO text from SQLite) to an ISO-8601 UTC string. */
export function toIso(value: Date | string): string {
  if (value instanceof Date) return value.toISOString();
  // Already canonical: returned as is (parsing every stored time again is most of a large export's cost).
  return CANONICAL_ISO.test(value) ? value : new Date(value).toISOString();
}

/** The number written at `value[from..to)` (ASCII digits). */
function digitsAt(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + value.charCodeAt(i) - 48;
  return n;
}

/**
 * Timestamp column to epoch milliseconds. Canonical ISO text (every stored time, on both databases) is read
 * by position, a few times faster than `Date.parse` (large exports read hundreds of thousands of times).
 */
export function toMillis(value: Date | string): number {
  if (value instanceof Date) return value.getTime();
  const year = CANONICAL_ISO.test(value) ? digitsAt(value, 0, 4) : 0;
  // Date.UTC reads years 0-99 as 1900-1999: those (never stored) go through Date.parse.
  if (year < 100) return Date.parse(value);
  return Date.UTC(
    year,
    digitsAt(value, 5, 7) - 1,
    digitsAt(value, 8, 10),
    digitsAt(value, 11, 13),
    digitsAt(value, 14, 16),
    digitsAt(value, 17, 19),
    digitsAt(value, 20, 23),
  );
}

export function toIsoOrNull(value: Date | string | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}

/** Boolean column (boolean from PostgreSQL, 0/1 from SQLite). */
export function toBool(value: boolean | number): boolean {
  return value === true || value === 1;
}

/** Numeric value that PostgreSQL may return as a string (bigint counts, numeric sums). */
export function toNumber(value: number | string | bigint): number {
  return typeof value === 'number' ? value : Number(value);
}

export function toNumberOrNull(value: number | string | bigint | null | undefined): number | null {
  return value === null || value === undefined ? null : toNumber(value);
}

/** JSON text column to an object; a broken document reads as null rather than failing the request. */
export function parseJsonObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
