// The journey bench's verdicts (run.ts).

export const verdict = (ok: boolean): string => (ok ? 'within budget' : 'OVER BUDGET');

/**
 * The run's last line. A database asked for but skipped (PostgreSQL without BENCH_DATABASE_URL or
 * TEST_DATABASE_URL) is named, and the run is then never "within budget": it measured less than was asked.
 */
export function journeyVerdict(allWithin: boolean, skipped: readonly string[]): string {
  const failed = allWithin ? '' : 'SOMETHING OVER BUDGET or failed (see above)';
  if (skipped.length === 0) return failed || 'everything within budget';
  const notMeasured = `NOT MEASURED on ${skipped.join(', ')} (skipped), so not within budget`;
  return failed ? `${failed}; ${notMeasured}` : `${notMeasured} (what ran was within budget)`;
}
