// Redaction for transcripts shared outside the team: a best-effort, rule-based pass, not a guarantee.
// Emails and phone numbers are found by pattern; names only where the text introduces them ("my name is
// Anna", "I'm Anna Smith", "call me Anna") or as a greeting/sign-off ("Thanks, Anna"). A name mentioned in
// any other way is NOT found: read the file before sharing it.

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
/** 7 or more digits, optionally with a leading +, separated by spaces, dots, dashes or brackets. */
const PHONE = /(?<![\p{L}\p{N}])\+?\(?\d(?:[\s.()-]*\d){6,}(?![\p{L}\p{N}])/gu;
const NAME = "\\p{Lu}[\\p{L}'-]+(?:\\s+\\p{Lu}[\\p{L}'-]+)?";
/** A phrase matched in lower case or with a capital first letter (the name after it must be capitalised). */
const phrases = (list: readonly string[]) => list.flatMap((p) => [p, p.charAt(0).toUpperCase() + p.slice(1)]).join('|');
const INTRODUCED = new RegExp(
  `(\\b(?:${phrases([
    'my name is',
    "my name's",
    'i am',
    "i'm",
    'im',
    'call me',
    'this is',
    ...['son', 'daughter', 'child', 'husband', 'wife', 'partner'].flatMap((w) => [`my ${w} is`, `my ${w}'s name is`]),
  ])}|I am|I'm)\\s+)(${NAME})`,
  'gu',
);
const SIGNED = new RegExp(
  `(\\b(?:${phrases(['thanks', 'thank you', 'regards', 'cheers', 'best', 'hi', 'hello', 'dear'])}),?\\s+)(${NAME})(?=[\\s.,!?]*$)`,
  'gmu',
);

export const REDACTED = { email: '[EMAIL]', phone: '[PHONE]', name: '[NAME]' } as const;

/** Words that follow "I am" without being a name (capitalised at the start of a sentence or as "I"). */
const NOT_NAMES = new Set(['Not', 'Very', 'So', 'Just', 'Really', 'Worried', 'Concerned', 'Sure', 'A', 'The', 'Also']);

function nameReplacer(_match: string, lead: string, name: string): string {
  const first = name.split(/\s+/)[0] ?? '';
  return NOT_NAMES.has(first) ? `${lead}${name}` : `${lead}${REDACTED.name}`;
}

/** The text with emails, phone numbers and introduced names replaced by placeholders. */
export function redact(text: string): string {
  return text
    .replace(EMAIL, REDACTED.email)
    .replace(PHONE, REDACTED.phone)
    .replace(INTRODUCED, nameReplacer)
    .replace(SIGNED, nameReplacer);
}
