import { csvObjects } from './parse-csv.testing.js';

// A reader for tests that applies exactly the rules of the R and pandas snippets of docs/running-a-study.md to a data
// package file: only the empty field is missing (R `na.strings = ""`; pandas `keep_default_na=False,
// na_values=[""]`), booleans are TRUE/FALSE, integer and number columns are numeric, everything else is
// text kept as is (R `colClasses = "character"`; pandas dtype "string"). R and pandas are not installed on
// the build machines: this reader stands in for them, so the test checks the rules, not R or pandas.

export interface SchemaField {
  name: string;
  type: string;
}

export type TypedValue = string | number | boolean | null;

export function typedValue(text: string, type: string): TypedValue {
  if (text === '') return null;
  switch (type) {
    case 'boolean':
      if (text === 'TRUE') return true;
      if (text === 'FALSE') return false;
      throw new Error(`not a boolean: ${JSON.stringify(text)}`);
    case 'integer': {
      if (!/^-?\d+$/.test(text)) throw new Error(`not an integer: ${JSON.stringify(text)}`);
      return Number(text);
    }
    case 'number': {
      const n = Number(text);
      if (!Number.isFinite(n)) throw new Error(`not a number: ${JSON.stringify(text)}`);
      return n;
    }
    default:
      return text;
  }
}

/** A CSV file read with its Table Schema: one object per row, typed; the header must match the schema. */
export function readTyped(text: string, fields: readonly SchemaField[]): Record<string, TypedValue>[] {
  const rows = csvObjects(text);
  const header = text.slice(0, text.indexOf('\r\n')).split(',');
  if (header.join(',') !== fields.map((f) => f.name).join(',')) throw new Error('header differs from schema');
  return rows.map((row) => Object.fromEntries(fields.map((f) => [f.name, typedValue(row[f.name] ?? '', f.type)])));
}
