import { isSafeMarkdownUrl } from '@studychat/contracts/web';
import { useEffect } from 'react';
import Markdown, { type AllowElement, type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

// A study's Markdown (docs/decisions/0052), in its own chunk: only a page showing Markdown loads it, so the
// participant pages' initial JavaScript stays within 100 KB. Safe without the server's check too:
// - raw HTML is never markup: react-markdown turns it into text (no rehype-raw);
// - only these elements are made, so no image (nothing is loaded from elsewhere), script or iframe;
// - a link whose address is not http(s) or mailto is shown as its text, with no href.

const ALLOWED = [
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'hr', 'br'],
  ...['strong', 'em', 'del', 'code', 'pre', 'a'],
  ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
];

const allowElement: AllowElement = (element) =>
  element.tagName !== 'a' || isSafeMarkdownUrl(String(element.properties.href ?? ''));

const heading2 = 'text-lg font-semibold text-slate-900 sm:text-xl';
const heading3 = 'text-base font-semibold text-slate-900 sm:text-lg';
const cell = 'border border-slate-200 px-3 py-2';

// The section's title is the page's h1: Markdown headings start one level below it.
const components: Components = {
  h1: ({ children }) => <h2 className={heading2}>{children}</h2>,
  h2: ({ children }) => <h3 className={heading3}>{children}</h3>,
  h3: ({ children }) => <h4 className={heading3}>{children}</h4>,
  h4: ({ children }) => <h5 className={heading3}>{children}</h5>,
  h5: ({ children }) => <h6 className={heading3}>{children}</h6>,
  h6: ({ children }) => <h6 className={heading3}>{children}</h6>,
  ul: ({ children }) => <ul className="list-disc space-y-1.5 pl-6">{children}</ul>,
  ol: ({ children }) => <ol className="list-decimal space-y-1.5 pl-6">{children}</ol>,
  blockquote: ({ children }) => (
    <blockquote className="rounded-lg border-l-4 border-brand-500 bg-brand-50 px-4 py-3 text-slate-900">
      {children}
    </blockquote>
  ),
  a: ({ href, children }) => (
    // A new tab keeps the study page (and its section timer) where it was.
    <a href={href} target="_blank" rel="noopener noreferrer" className="text-brand-700 underline">
      {children}
    </a>
  ),
  code: ({ children }) => <code className="rounded bg-slate-100 px-1 text-[0.95em]">{children}</code>,
  pre: ({ children }) => <pre className="overflow-x-auto rounded-lg bg-slate-100 p-3 text-sm">{children}</pre>,
  table: ({ children }) => (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm sm:text-base">{children}</table>
    </div>
  ),
  thead: ({ children }) => <thead className="bg-slate-100">{children}</thead>,
  tr: ({ children }) => <tr className="even:bg-slate-50">{children}</tr>,
  th: ({ children, style }) => (
    <th scope="col" className={`${cell} font-semibold`} style={style}>
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td className={cell} style={style}>
      {children}
    </td>
  ),
};

/** Renders one Markdown body (CommonMark with GFM tables) as React elements. */
export default function StudyMarkdown({ text }: { text: string }) {
  // The page grew once the text came in: a "scrolled to the end" check listening for resizes looks again.
  useEffect(() => {
    window.dispatchEvent(new Event('resize'));
  }, []);
  return (
    <div className="space-y-3">
      <Markdown
        remarkPlugins={[remarkGfm]}
        components={components}
        allowedElements={ALLOWED}
        allowElement={allowElement}
        unwrapDisallowed
      >
        {text}
      </Markdown>
    </div>
  );
}
