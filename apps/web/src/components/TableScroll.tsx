import type { ReactNode } from 'react';

/**
 * Scroll box for wide tables: scrolls sideways inside its card on narrow screens, and (given a
 * maximum height) vertically too, so the sticky header cells stay in view.
 */
export function TableScroll({
  children,
  maxHeight,
  label,
  bleed = true,
}: {
  children: ReactNode;
  maxHeight?: string;
  label?: string;
  /** Reach the edges of a padded Card (true), or fill an unpadded one (false). */
  bleed?: boolean;
}) {
  return (
    <div
      // relative: an absolutely placed child (a screen-reader-only label) scrolls with the table, not the page.
      className={`relative overflow-auto ${bleed ? '-mx-5 border-y border-slate-200 sm:-mx-6' : ''}`}
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
/** A date cell may wrap after the date on narrow screens instead of pushing the table wider. */
export const TD_DATE_CLASS = 'border-b border-slate-100 px-3 py-2 align-top min-w-24';
/** A cell of free text that wraps. */
export const TD_WRAP_CLASS = 'border-b border-slate-100 px-3 py-2 align-top min-w-40';
