import type { ReactNode } from 'react';

/**
 * Scroll box for wide tables: scrolls sideways inside its card on narrow screens, and (given a
 * maximum height) vertically too, so the sticky header cells stay in view.
 */
export function TableScroll({
  children,
  maxHeight,
  label,
}: {
  children: ReactNode;
  maxHeight?: string;
  label?: string;
}) {
  return (
    <div
      className="-mx-5 overflow-auto border-y border-slate-200 sm:-mx-6"
      style={maxHeight ? { maxHeight } : undefined}
      // A scrollable region must be reachable by keyboard.
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      {children}
    </div>
  );
}

export const TABLE_CLASS = 'min-w-full border-separate border-spacing-0 text-sm';
export const TD_CLASS = 'border-b border-slate-100 px-3 py-2 align-top whitespace-nowrap';
