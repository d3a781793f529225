import type { CsvType, CsvValue } from './csv.js';

// The spreadsheet copy (.xlsx) is for looking at the data in Excel, LibreOffice or Google Sheets, never
// for analysis: text a spreadsheet could run as a formula gets a leading `'` there, so it is not exact
// (docs/decisions/0035-exact-analysis-files.md). The analysis CSVs and the data package keep the text as is; the
// shareable transcripts, for people rather than analysis, are neutralised too (0074).

/** A cell starting with one of these could run as a formula once edited or re-saved as CSV. */
const FORMULA_START = /^[=+\-@\t\r\n]/;
/** Characters XML 1.0 cannot carry (the .xlsx is XML): dropped from the spreadsheet copy. */
// eslint-disable-next-line no-control-regex
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
/** The most characters a spreadsheet cell holds (Excel's limit). */
export const CELL_MAX_CHARS = 32_767;

/**
 * Formula-looking text prefixed with `'`, so a spreadsheet shows it rather than runs it: the .xlsx copy's cells,
 * and the shareable transcripts, a CSV meant to be opened by people (docs/decisions/0074-hardening.md).
 */
export function formulaSafe(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Text made safe for a spreadsheet cell: formula-looking text prefixed with `'`, cut at the cell limit. */
export function spreadsheetText(text: string): string {
  const safe = formulaSafe(text.replace(XML_ILLEGAL, ''));
  return safe.length > CELL_MAX_CHARS ? safe.slice(0, CELL_MAX_CHARS) : safe;
}

/** A column value as a typed spreadsheet cell: numbers and booleans stay typed, text is neutralised. */
export function spreadsheetCell(value: CsvValue, type: CsvType): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (type === 'integer' || type === 'number') {
    const n = Number(value);
    if (value.trim() !== '' && Number.isFinite(n)) return n;
  }
  return spreadsheetText(value);
}
