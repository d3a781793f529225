import { useId } from 'react';

/**
 * A labelled choice of one study version (pinning, comparing). The label names the select alone (not wrapping it),
 * so its accessible name is the label, never the versions' labels too.
 */
export function VersionSelect({
  label,
  value,
  versions,
  onChange,
}: {
  label: string;
  value: string;
  versions: readonly { id: string; label: string }[];
  onChange: (id: string) => void;
}) {
  const id = useId();
  return (
    <span className="flex min-w-0 max-w-full flex-wrap items-center gap-1 text-sm font-medium text-slate-800">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        // A select is as wide as its longest option: capped, so a long version name never widens a phone's page.
        className="min-h-11 max-w-full min-w-0 rounded border border-slate-300 px-2 py-1"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">Choose a version</option>
        {versions.map((v) => (
          <option key={v.id} value={v.id}>
            {v.label}
          </option>
        ))}
      </select>
    </span>
  );
}
