/**
 * Whether a link in a study's Markdown may be shown as a link: an absolute https://, http:// or mailto:
 * address (docs/decisions/0052). The schema refuses any other link when a version is saved, and the web's
 * renderer shows any other as plain text (a `javascript:` or relative link never becomes an `href`).
 */
export function isSafeMarkdownUrl(url: string): boolean {
  return /^(?:https?:\/\/[^\s/]|mailto:[^\s])/i.test(url.trim());
}
