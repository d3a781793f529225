/**
 * A strict RFC 4180 reader for tests: records split on CRLF, quoted fields may hold commas, quotes (doubled)
 * and line breaks. Throws on anything malformed, so a quoting bug in the writer fails the test.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += text[i];
        i += 1;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`bare quote in unquoted field at ${i}`);
        field += text[i];
        i += 1;
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i += 1;
    } else if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else {
      throw new Error(`expected a comma or CRLF at ${i}`);
    }
  }
  if (record.length > 0) throw new Error('last record does not end with CRLF');
  return records;
}

/** Records as objects keyed by the header; every record must have the header's width. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new Error('no header');
  return rows.map((row) => {
    if (row.length !== header.length) throw new Error(`record has ${row.length} fields, header ${header.length}`);
    return Object.fromEntries(header.map((name, i) => [name, row[i] ?? '']));
  });
}
