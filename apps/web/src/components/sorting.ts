// Pure sorting rules shared by the admin tables (spec section 2): clicking the same header toggles the
// direction, a new column starts ascending, and empty values always sort last.

export type SortOrder = 'asc' | 'desc';

export interface SortState<K extends string> {
  key: K;
  order: SortOrder;
}

export type SortValue = string | number | boolean | null | undefined;

/** The sort after a click on `key`: the same column toggles, a new column starts ascending. */
export function nextSort<K extends string>(current: SortState<K>, key: K): SortState<K> {
  if (current.key === key) return { key, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { key, order: 'asc' };
}

export function isEmptyValue(value: SortValue): value is null | undefined | '' {
  return value === null || value === undefined || value === '';
}

/** Compares two cell values in the given direction; empty values go last whichever the direction. */
export function compareValues(a: SortValue, b: SortValue, order: SortOrder): number {
  const aEmpty = isEmptyValue(a);
  const bEmpty = isEmptyValue(b);
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  let result: number;
  if (typeof a === 'number' && typeof b === 'number') result = a - b;
  else if (typeof a === 'boolean' && typeof b === 'boolean') result = Number(a) - Number(b);
  else result = String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
  return order === 'asc' ? result : -result;
}

/** A sorted copy of `rows` (stable: equal values keep their order). */
export function sortRows<T, K extends string>(
  rows: readonly T[],
  sort: SortState<K>,
  valueOf: (row: T, key: K) => SortValue,
): T[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort((x, y) => compareValues(valueOf(x.row, sort.key), valueOf(y.row, sort.key), sort.order) || x.index - y.index)
    .map(({ row }) => row);
}
