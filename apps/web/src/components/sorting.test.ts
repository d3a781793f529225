import { describe, expect, it } from 'vitest';
import { compareValues, nextSort, sortRows, type SortState } from './sorting';

type Row = { id: string; n: number | null; s: string | null };
const rows: Row[] = [
  { id: 'a', n: 3, s: 'mmr' },
  { id: 'b', n: null, s: null },
  { id: 'c', n: 10, s: 'control' },
  { id: 'd', n: 1, s: '' },
  { id: 'e', n: 3, s: 'control' },
];
const ids = (sorted: Row[]) => sorted.map((r) => r.id).join('');

describe('nextSort', () => {
  it('toggles the direction when the same column is clicked again', () => {
    const start: SortState<'n' | 's'> = { key: 'n', order: 'asc' };
    const once = nextSort(start, 'n');
    expect(once).toEqual({ key: 'n', order: 'desc' });
    expect(nextSort(once, 'n')).toEqual({ key: 'n', order: 'asc' });
  });

  it('starts a new column ascending, whatever the current direction', () => {
    expect(nextSort({ key: 'n', order: 'desc' }, 's')).toEqual({ key: 's', order: 'asc' });
    expect(nextSort({ key: 'n', order: 'asc' }, 's')).toEqual({ key: 's', order: 'asc' });
  });
});

describe('sortRows', () => {
  const value = (row: Row, key: 'n' | 's') => row[key];

  it('sorts numbers numerically (10 after 3), keeping equal values in their order', () => {
    expect(ids(sortRows(rows, { key: 'n', order: 'asc' }, value))).toBe('daecb');
    expect(ids(sortRows(rows, { key: 'n', order: 'desc' }, value))).toBe('caedb');
  });

  it('puts empty values (null and empty text) last in both directions', () => {
    expect(ids(sortRows(rows, { key: 's', order: 'asc' }, value))).toBe('ceabd');
    expect(ids(sortRows(rows, { key: 's', order: 'desc' }, value))).toBe('acebd');
  });

  it('does not change the input array', () => {
    const copy = [...rows];
    sortRows(rows, { key: 'n', order: 'desc' }, value);
    expect(rows).toEqual(copy);
  });

  it('orders booleans false before true ascending', () => {
    expect(compareValues(false, true, 'asc')).toBeLessThan(0);
    expect(compareValues(false, true, 'desc')).toBeGreaterThan(0);
  });

  it('compares ISO timestamps chronologically', () => {
    expect(compareValues('2026-01-02T00:00:00.000Z', '2026-01-10T00:00:00.000Z', 'asc')).toBeLessThan(0);
  });
});
