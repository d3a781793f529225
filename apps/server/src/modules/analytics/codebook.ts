import type { CsvColumn, CsvType } from './csv.js';
import { DATA_FILE_COLUMNS } from './export-columns.js';

/** One line of the codebook: a column of one export file. */
export interface CodebookEntry {
  file: string;
  column: string;
  type: CsvType;
  meaning: string;
  allowed: string;
}

const TYPE_LABELS: Record<CsvType, string> = {
  text: 'text',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean (TRUE/FALSE)',
  timestamp: 'timestamp (ISO 8601, UTC)',
  json: 'JSON text',
};

export const CODEBOOK_COLUMNS: readonly CsvColumn<CodebookEntry>[] = [
  { name: 'file', type: 'text', meaning: 'Export file', value: (e) => e.file },
  { name: 'column', type: 'text', meaning: 'Column name in that file', value: (e) => e.column },
  { name: 'type', type: 'text', meaning: 'Value type', value: (e) => TYPE_LABELS[e.type] },
  { name: 'meaning', type: 'text', meaning: 'What the column holds', value: (e) => e.meaning },
  { name: 'allowed_values', type: 'text', meaning: 'Allowed values or range', value: (e) => e.allowed },
];

/** Every column of every data file, generated from the same definitions that write the files. */
export function codebookEntries(
  files: Readonly<Record<string, readonly CsvColumn<never>[]>> = DATA_FILE_COLUMNS,
): CodebookEntry[] {
  return Object.entries(files).flatMap(([file, columns]) =>
    columns.map((c) => ({
      file,
      column: c.name,
      type: c.type,
      meaning: c.meaning,
      allowed: c.allowed ?? '',
    })),
  );
}
