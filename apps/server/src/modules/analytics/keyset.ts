/**
 * Reads a large result page by page with keyset pagination (`where (keys) > (last keys) order by keys
 * limit n`): each page is a short query, so a long export never holds a database connection (on SQLite,
 * the only one) while the client downloads, and memory stays at one page.
 */
export async function* keysetPages<Row, Cursor>(
  fetchPage: (after: Cursor | null, limit: number) => Promise<Row[]>,
  cursorOf: (row: Row) => Cursor,
  pageSize: number,
): AsyncGenerator<Row[]> {
  let after: Cursor | null = null;
  for (;;) {
    const rows = await fetchPage(after, pageSize);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < pageSize || last === undefined) return;
    after = cursorOf(last);
  }
}
