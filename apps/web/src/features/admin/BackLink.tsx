import { Link } from '../../lib/router';

/** A back link shown above a page heading. */
export function BackLink({ to, children }: { to: string; children: string }) {
  return (
    <Link
      to={to}
      className="inline-flex min-h-9 items-center gap-1 rounded text-sm font-medium text-brand-700 hover:underline"
    >
      <span aria-hidden="true">←</span> {children}
    </Link>
  );
}
