/** A small busy indicator with a text for screen readers. */
export function Spinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-slate-600">
      <span
        aria-hidden="true"
        className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600"
      />
      <span>{label}</span>
    </span>
  );
}
