// RFC 4180 CSV: comma separated, CRLF between records, a field quoted when it holds a comma, a quote, CR or
// LF, quotes doubled inside. UTF-8 without a byte-order mark (R's read.csv and pandas read it as is).

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
  value: (row: Row) => CsvValue;
}

// A spreadsheet runs a cell starting with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One field. Null is an empty field. Text that a spreadsheet would run as a formula gets a leading `'`;
 * numbers never do, so a negative number stays a number.
 */
export function csvField(value: CsvValue, type: CsvType): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'boolean') text = value ? 'true' : 'false';
  else text = (type === 'text' || type === 'json') && FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(fields: readonly string[]): string {
  return `${fields.join(',')}\r\n`;
}

export function csvHeader<Row>(columns: readonly CsvColumn<Row>[]): string {
  return csvRecord(columns.map((c) => csvField(c.name, 'text')));
}

export function csvRow<Row>(columns: readonly CsvColumn<Row>[], row: Row): string {
  return csvRecord(columns.map((c) => csvField(c.value(row), c.type)));
}
