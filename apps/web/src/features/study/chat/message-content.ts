/** A run of message text: plain prose, or the inside of a triple-backtick block. */
export type ContentPart = { kind: 'text'; text: string } | { kind: 'code'; text: string };

const FENCE = '```';

/**
 * Splits message content into text and triple-backtick code parts. The language word after an
 * opening fence is dropped; a block not yet closed (still streaming) runs to the end.
 */
export function splitContent(content: string): ContentPart[] {
  const parts: ContentPart[] = [];
  let rest = content;
  while (rest) {
    const open = rest.indexOf(FENCE);
    if (open === -1) {
      parts.push({ kind: 'text', text: rest });
      break;
    }
    if (open > 0) parts.push({ kind: 'text', text: rest.slice(0, open) });
    let body = rest.slice(open + FENCE.length);
    const newline = body.indexOf('\n');
    const close = body.indexOf(FENCE);
    // `lang\n` right after the fence is an info string, not code.
    if (newline !== -1 && (close === -1 || newline < close) && /^[\w+#.-]*$/.test(body.slice(0, newline).trim()))
      body = body.slice(newline + 1);
    const end = body.indexOf(FENCE);
    const code = end === -1 ? body : body.slice(0, end);
    parts.push({ kind: 'code', text: code.replace(/\n$/, '') });
    rest = end === -1 ? '' : body.slice(end + FENCE.length).replace(/^\n/, '');
  }
  return parts.filter((p) => p.kind === 'code' || p.text.length > 0);
}
