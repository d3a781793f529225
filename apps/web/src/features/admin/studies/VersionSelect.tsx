/** A labelled choice of one study version (pinning, comparing). */
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
  return (
    <label className="text-sm font-medium text-slate-800">
      {label}{' '}
      <select
        className="ml-1 rounded border border-slate-300 px-2 py-1"
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
    </label>
  );
}
