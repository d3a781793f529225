import type { GeneratedCredential } from '@studychat/contracts/web';

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
