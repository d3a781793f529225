import { describe, expect, it } from 'vitest';
import { csvField, csvHeader, csvRow, type CsvColumn } from './csv.js';
import { parseCsv } from './parse-csv.testing.js';

describe('csvField', () => {
  it('writes null and undefined as an empty field', () => {
    expect(csvField(null, 'text')).toBe('');
    expect(csvField(undefined, 'integer')).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('a,b', 'text')).toBe('"a,b"');
    expect(csvField('say "hi"', 'text')).toBe('"say ""hi"""');
    expect(csvField('one\ntwo', 'text')).toBe('"one\ntwo"');
    expect(csvField('one\r\ntwo', 'text')).toBe('"one\r\ntwo"');
    expect(csvField('plain text 😀', 'text')).toBe('plain text 😀');
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://x","y")', 'text')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvField('+1', 'text')).toBe("'+1");
    expect(csvField('-2', 'text')).toBe("'-2");
    expect(csvField('@SUM(A1:A2)', 'text')).toBe("'@SUM(A1:A2)");
    expect(csvField('\tx', 'text')).toBe("'\tx");
    expect(csvField('\rx', 'text')).toBe('"\'\rx"');
    expect(csvField('a=1', 'text')).toBe('a=1');
  });

  it('never neutralises numbers, so negative values stay numeric', () => {
    expect(csvField(-4, 'integer')).toBe('-4');
    expect(csvField(-0.5, 'number')).toBe('-0.5');
    expect(csvField(0, 'integer')).toBe('0');
    expect(csvField(Number.NaN, 'number')).toBe('');
  });

  it('writes booleans as true/false', () => {
    expect(csvField(true, 'boolean')).toBe('true');
    expect(csvField(false, 'boolean')).toBe('false');
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
