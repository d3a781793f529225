import { fromMarkdown } from 'mdast-util-from-markdown';
import { isSafeMarkdownUrl } from './markdown-url.js';

// The server's check of a study's Markdown (docs/decisions/0052). It parses the text with the parser the web's
// renderer uses (micromark, CommonMark) and refuses what the renderer would not show as the researcher meant:
// raw HTML (shown as text, never as markup), images (none are loaded from elsewhere) and links that are not
// absolute web or mail addresses. The renderer holds to the same rules on its own.

/** The longest Markdown body, in characters (about 1,500 words). */
export const MARKDOWN_MAX_CHARS = 10_000;
/** The deepest nesting of quotes and lists on a line. */
export const MARKDOWN_MAX_NESTING = 8;

interface MdNode {
  type: string;
  url?: string;
  children?: MdNode[];
}

// The container markers at the start of a line: `>`, `-`, `+`, `*` or `1.` / `1)` before a space.
const CONTAINER_PREFIX = /^(?:[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))+[ \t]*/;
const MARKER = />|[-+*]|\d{1,9}[.)]/g;

/**
 * How deep a line nests quotes and lists, counted before parsing: the parser's time grows faster than the
 * text with deep nesting (10,000 nested quotes took seconds), so such a text is refused without parsing it.
 */
function deepestNesting(text: string): number {
  let deepest = 0;
  for (const line of text.split('\n')) {
    const prefix = CONTAINER_PREFIX.exec(line)?.[0] ?? line;
    const markers = prefix.match(MARKER)?.length ?? 0;
    const indent = (/^[ \t]*/.exec(prefix)?.[0] ?? '').replace(/\t/g, '    ').length;
    deepest = Math.max(deepest, markers + Math.floor(indent / 4));
  }
  return deepest;
}

/** What is wrong with a Markdown body, in words a researcher can act on; empty when nothing is. */
export function markdownProblems(text: string): string[] {
  // Too long is the length check's to say; nothing longer is parsed.
  if (text.length > MARKDOWN_MAX_CHARS) return [];
  if (deepestNesting(text) > MARKDOWN_MAX_NESTING)
    return [`must not nest quotes or lists more than ${MARKDOWN_MAX_NESTING} deep`];
  const problems = new Set<string>();
  const pending: MdNode[] = [fromMarkdown(text) as MdNode];
  // A loop, not recursion: a text nested deeply within the limits cannot exhaust the stack.
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.type === 'html')
      problems.add('must not contain HTML (such as <b> or <script>): write Markdown, HTML is shown as text');
    else if (node.type === 'image' || node.type === 'imageReference') problems.add('must not contain images');
    else if ((node.type === 'link' || node.type === 'definition') && !isSafeMarkdownUrl(node.url ?? ''))
      problems.add(`links must be https://, http:// or mailto: addresses (not "${(node.url ?? '').slice(0, 40)}")`);
    if (node.children) pending.push(...[...node.children].reverse()); // in the order of the text
  }
  return [...problems];
}
