import type { GeneratedCredential, StudyLogin } from '@studychat/contracts/web';

export const INVALID_COUNT_TEXT = 'Please enter a valid number of credentials to generate (must be > 0).';

/** The count typed in the box; non-numeric input counts as 0 (spec section 5). */
export function parseCredentialCount(input: string): number {
  const count = Number.parseInt(input.trim(), 10);
  return Number.isNaN(count) ? 0 : count;
}

/** The validation message for a count, or null when it may be sent (the server enforces the upper bound). */
export function credentialCountError(count: number): string | null {
  return count > 0 ? null : INVALID_COUNT_TEXT;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Credentials as CSV with the header line `Username,Password`. */
export function credentialsCsv(credentials: readonly GeneratedCredential[]): string {
  const lines = ['Username,Password', ...credentials.map((c) => `${csvField(c.email)},${csvField(c.password)}`)];
  return `${lines.join('\n')}\n`;
}

/** Most spares one can ask for, as a percentage of the logins asked for. */
export const SPARE_PERCENT_MAX = 100;

/** The spare share typed in the box, as a whole percentage from 0 to SPARE_PERCENT_MAX (anything else is 0). */
export function parseSparePercent(input: string): number {
  const percent = Number.parseInt(input.trim(), 10);
  return Number.isNaN(percent) || percent < 0 ? 0 : Math.min(percent, SPARE_PERCENT_MAX);
}

/**
 * How many logins to generate for `count` places plus `percent` spares, rounded up: Prolific gives a new
 * participant a place when one returns or times out, and each of them takes a fresh login.
 */
export function withSpares(count: number, percent: number): number {
  return count + Math.ceil((count * percent) / 100);
}

/**
 * Logins in the form Prolific's study credentials take: one `username,password` pair per line and no header
 * line (Prolific's credential pool format; docs/decisions/0023-prolific-credentials.md). Generated usernames
 * and passwords never contain a comma, quote or line break, so no field needs quoting.
 */
export function prolificCredentialsCsv(credentials: readonly GeneratedCredential[]): string {
  return credentials.map((c) => `${c.email},${c.password}\n`).join('');
}

/** `prolific-credentials-1a2b3c4d-20261122-2215.csv`: experiment and local time of the batch. */
export function prolificCsvName(experimentId: string, now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  return `prolific-credentials-${experimentId.slice(0, 8)}-${stamp}.csv`;
}

/**
 * The logins generated but never used (not logged in, not joined, not revoked), as CSV with the header line
 * `Username,Generated`: the list to remove from Prolific's credential pool once the study has its sample.
 */
export function unusedLoginsCsv(logins: readonly StudyLogin[]): string {
  const unused = logins.filter((l) => l.status === 'unused');
  const lines = ['Username,Generated', ...unused.map((l) => `${csvField(l.email)},${csvField(l.created_at)}`)];
  return `${lines.join('\n')}\n`;
}

/** `unused-logins-1a2b3c4d-20261122-2215.csv`. */
export function unusedLoginsCsvName(experimentId: string, now: Date): string {
  return prolificCsvName(experimentId, now).replace('prolific-credentials-', 'unused-logins-');
}
