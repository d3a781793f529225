/**
 * The "test" marker of a preview run or a preview's login ("preview as participant", docs/decisions/0045,
 * 0057): not a participant, left out of the summary, chart, the monitor's numbers (its list shows test runs on
 * request, 0063) and (by default) the exports.
 */
export function TestRunBadge({
  what = 'A preview run by an admin',
  label = 'test',
}: {
  what?: string;
  label?: string;
}) {
  return (
    <span
      className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-800"
      title={`${what}: not counted in the summary, chart or monitor numbers`}
    >
      {label}
    </span>
  );
}
