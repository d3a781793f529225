import { z } from 'zod';

// Every text field a client sends goes through one of these two schemas (DESIGN.md section 5), so NUL
// and other control characters never reach the database: PostgreSQL refuses NUL in text (a 500 before
// this), SQLite stores it and the CSV exports wrote it out raw.
//
// Refused: the Unicode control characters (category Cc: U+0000-U+001F, U+007F-U+009F) and broken UTF-16
// (a lone surrogate, which a database would silently store as U+FFFD). Written as one pattern each, so
// `z.toJSONSchema` shows them and a test can check that every text field of every route carries one.

/** Any character but a control character or a surrogate, or a well-formed surrogate pair. */
const SAFE = String.raw`[^\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF]`;
/** The same, plus tab and line feed. */
const SAFE_FREE = String.raw`[^\u0000-\u0008\u000B-\u001F\u007F-\u009F\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF]`;

/** Pattern of single-line text (`LineText`). */
export const LINE_TEXT_PATTERN = new RegExp(`^(?:${SAFE})*$`);
/** Pattern of free text (`FreeText`): tab and line feed allowed. */
export const FREE_TEXT_PATTERN = new RegExp(`^(?:${SAFE_FREE})*$`);

export const CONTROL_CHARACTER_MESSAGE = 'must not contain control characters (such as NUL) or broken characters';
export const FREE_TEXT_CONTROL_MESSAGE =
  'must not contain control characters other than tab and line break (such as NUL) or broken characters';

/**
 * One line of text (names, codes, ids, emails, passwords): no control character at all. Chain the
 * field's own rules after it: `LineText.trim().min(1).max(64)`.
 */
export const LineText = z.string().regex(LINE_TEXT_PATTERN, CONTROL_CHARACTER_MESSAGE);

/**
 * Free text (chat messages, descriptions): tab and line breaks allowed, other control characters not.
 * A CRLF or lone CR line break is stored as LF.
 */
export const FreeText = z
  .string()
  .overwrite((s) => (s.includes('\r') ? s.replace(/\r\n?/g, '\n') : s))
  .regex(FREE_TEXT_PATTERN, FREE_TEXT_CONTROL_MESSAGE);
