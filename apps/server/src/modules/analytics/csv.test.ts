import { describe, expect, it } from 'vitest';
import { csvField, csvHeader, csvRow, type CsvColumn } from './csv.js';
import { parseCsv } from './parse-csv.testing.js';

describe('csvField', () => {
  it('writes null and undefined as an empty field', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('one\ntwo')).toBe('"one\ntwo"');
    expect(csvField('one\r\ntwo')).toBe('"one\r\ntwo"');
    expect(csvField('\rx')).toBe('"\rx"');
    expect(csvField('plain text 😀')).toBe('plain text 😀');
  });

  it('keeps text exactly as stored, formula-looking text included (the spreadsheet download neutralises)', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"=HYPERLINK(""http://x"",""y"")"');
    for (const text of ['+1', '-2', '@SUM(A1:A2)', '\tx', "'=x", '=1+1', 'NA', 'NULL', 'N/A', '-6 to 6']) {
      expect(csvField(text)).toBe(text);
    }
  });

  it('writes numbers as they are, non-finite ones as empty', () => {
    expect(csvField(-4)).toBe('-4');
    expect(csvField(-0.5)).toBe('-0.5');
    expect(csvField(0)).toBe('0');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('writes booleans as TRUE/FALSE (logical in R read.csv and pandas)', () => {
    expect(csvField(true)).toBe('TRUE');
    expect(csvField(false)).toBe('FALSE');
  });
});

describe('csvHeader and csvRow', () => {
  it('write one CRLF-terminated record per row that reads back to the same values', () => {
    type Row = { a: string; b: number | null };
    const columns: CsvColumn<Row>[] = [
      { name: 'a', type: 'text', meaning: 'a', value: (r) => r.a },
      { name: 'b', type: 'integer', meaning: 'b', value: (r) => r.b },
    ];
    const text = csvHeader(columns) + csvRow(columns, { a: 'x,"y"\nz', b: -3 }) + csvRow(columns, { a: '', b: null });
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([
      ['a', 'b'],
      ['x,"y"\nz', '-3'],
      ['', ''],
    ]);
  });
});
