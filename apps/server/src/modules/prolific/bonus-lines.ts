import { PROLIFIC_BONUS_MAX_CENTS, PROLIFIC_BONUS_MAX_LINES } from '@studychat/contracts';

// Bonus amounts and the researcher's CSV (docs/decisions/0089): amounts are kept as integer minor units (pence)
// and sent to Prolific as decimal strings in the study's currency ("0.50"), never as floats.

const AMOUNT = /^(\d{1,3})(?:\.(\d{1,2}))?$/;
const PID = /^[A-Za-z0-9]{1,64}$/;
const HEADER = /^\s*(pid|prolific_?pid|participant_?id|participant)\s*,\s*(amount|bonus)\s*$/i;

/** "0.5" → 50, "2" → 200; null for anything that is not a positive amount up to the cap. */
export function centsOf(text: string): number | null {
  const match = AMOUNT.exec(text.trim());
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents > 0 && cents <= PROLIFIC_BONUS_MAX_CENTS ? cents : null;
}

/** 50 → "0.50". */
export function decimalOf(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export interface ParsedLine {
  line: number;
  prolificPid: string;
  amountCents: number;
}
export interface LineProblem {
  path: string;
  message: string;
}

/**
 * Lines of `<Prolific id>,<amount>` (an optional header line, blank lines skipped). Every problem is reported with
 * its line number: a malformed line, a bad amount, a Prolific id given twice.
 */
export function parseBonusCsv(csv: string): { lines: ParsedLine[]; problems: LineProblem[] } {
  const lines: ParsedLine[] = [];
  const problems: LineProblem[] = [];
  const seen = new Map<string, number>();
  const rows = csv.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  rows.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '' || (lines.length === 0 && problems.length === 0 && HEADER.test(raw))) return;
    const cells = raw.split(',');
    const pid = (cells[0] ?? '').trim();
    const amount = (cells[1] ?? '').trim();
    if (cells.length !== 2 || !PID.test(pid)) {
      problems.push({ path: `line ${line}`, message: 'must be a Prolific id, a comma and an amount' });
      return;
    }
    const cents = centsOf(amount);
    if (cents === null) {
      problems.push({
        path: `line ${line}`,
        message: `${pid}: the amount must be between 0.01 and ${decimalOf(PROLIFIC_BONUS_MAX_CENTS)}, such as 0.50`,
      });
      return;
    }
    const first = seen.get(pid);
    if (first !== undefined) {
      problems.push({ path: `line ${line}`, message: `${pid} is already on line ${first}` });
      return;
    }
    seen.set(pid, line);
    lines.push({ line, prolificPid: pid, amountCents: cents });
  });
  if (lines.length === 0 && problems.length === 0) problems.push({ path: 'csv', message: 'has no bonus lines' });
  if (lines.length > PROLIFIC_BONUS_MAX_LINES) {
    problems.push({ path: 'csv', message: `has more than ${PROLIFIC_BONUS_MAX_LINES} lines` });
  }
  return { lines, problems };
}
