// RFC 4180 CSV: comma separated, CRLF between records, a field quoted when it holds a comma, a quote, CR or
// LF, quotes doubled inside. UTF-8 without a byte-order mark (R's read.csv and pandas read it as is).
// Text is written exactly as stored (no formula neutralisation: that is the spreadsheet download's job,
// docs/decisions/0035-exact-analysis-files.md); booleans are TRUE/FALSE, which R's read.csv and pandas both
// read as logical; missing is an empty field.

export type CsvValue = string | number | boolean | null | undefined;

/** How a column's values are written and what the codebook says they are. */
export type CsvType = 'text' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'json';

/** One column of an export file: the same definition writes the header, every row and the codebook entry. */
export interface CsvColumn<Row> {
  name: string;
  type: CsvType;
  meaning: string;
  /** Allowed values or range, for the codebook; empty when free. */
  allowed?: string;
  /** The allowed values, for datapackage.json's enum constraint. */
  enum?: readonly string[];
  /** The lowest and highest value, for datapackage.json's constraints. */
  minimum?: number;
  maximum?: number;
  value: (row: Row) => CsvValue;
}

const NEEDS_QUOTES = /[",\r\n]/;

/** A value as the text of its cell: null and non-finite numbers are empty, booleans TRUE/FALSE. */
export function cellText(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return value;
}

/** One field, quoted where RFC 4180 needs it; the text itself is never changed. */
export function csvField(value: CsvValue): string {
  const text = cellText(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(fields: readonly string[]): string {
  return `${fields.join(',')}\r\n`;
}

export function csvHeader<Row>(columns: readonly CsvColumn<Row>[]): string {
  return csvRecord(columns.map((c) => csvField(c.name)));
}

export function csvRow<Row>(columns: readonly CsvColumn<Row>[], row: Row): string {
  return csvRecord(columns.map((c) => csvField(c.value(row))));
}
