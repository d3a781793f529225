import type { CSSProperties } from 'react';

/** Widths of one character in em: a monospace glyph (about 0.6em) plus tracking-wider (0.05em), with room to spare. */
const EM_PER_CHARACTER = 0.7;

/**
 * A completion code on one line, never broken mid-code (a participant types or pastes it whole): the text
 * shrinks to fit the width it has (container query units), from the usual size down to 12 px, and a code
 * longer than that scrolls sideways rather than wrapping (issue 34).
 */
export function CompletionCodeText({ code }: { code: string }) {
  const style = { '--code-ems': (Math.max(code.length, 1) * EM_PER_CHARACTER).toFixed(2) } as CSSProperties;
  return (
    <div className="mt-1 @container">
      <p
        data-testid="completion-code"
        style={style}
        className="overflow-x-auto font-mono text-[length:clamp(0.75rem,calc(100cqi/var(--code-ems)),1.5rem)] font-bold tracking-wider whitespace-nowrap text-slate-900 select-all [word-break:keep-all] sm:text-[length:clamp(0.75rem,calc(100cqi/var(--code-ems)),1.875rem)]"
      >
        {code}
      </p>
    </div>
  );
}
