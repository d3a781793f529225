import { useEffect, useState, type ReactNode } from 'react';
import { useDraft } from './draft-context';
import { focusPath } from './focus-path';

/** Whether an issue's path is `prefix` or inside it. */
export const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}.`);

/**
 * One part of the definition as a disclosure (keyboard: Tab to its title, Enter or Space opens it); its title
 * counts the problems inside, so a closed part still shows where the draft's problems are. Its fields are
 * rendered only while it is open (the whole study is several hundred fields).
 */
export function FormSection({ title, prefixes, children }: { title: string; prefixes: string[]; children: ReactNode }) {
  const { issues, focusRequest, clearFocusRequest } = useDraft();
  const [open, setOpen] = useState(false);
  const wanted = focusRequest !== null && prefixes.some((prefix) => isUnder(focusRequest, prefix));
  if (wanted && !open) setOpen(true);
  useEffect(() => {
    if (!wanted || !open || focusRequest === null) return;
    focusPath(focusRequest);
    clearFocusRequest();
  }, [wanted, open, focusRequest, clearFocusRequest]);
  const count = issues.filter((issue) => prefixes.some((prefix) => isUnder(issue.path, prefix))).length;
  return (
    <details
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      className="rounded-lg border border-slate-200 bg-white"
    >
      <summary className="flex min-h-11 cursor-pointer items-center gap-2 px-3 py-2 font-semibold text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
        <span>{title}</span>
        {count > 0 && (
          <span className="rounded-full bg-red-100 px-2 text-sm font-medium text-red-800">
            {count} problem{count === 1 ? '' : 's'}
          </span>
        )}
      </summary>
      {open && <div className="space-y-4 border-t border-slate-200 p-3">{children}</div>}
    </details>
  );
}
