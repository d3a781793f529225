import { nextSort, type SortState } from './sorting';

const TH_BASE =
  'sticky top-0 z-10 border-b border-slate-200 bg-slate-50 px-3 py-2 text-sm font-semibold whitespace-nowrap text-slate-700';
/** Classes for plain header cells, matching the sortable ones. */
export const TH_CLASS = `${TH_BASE} text-left`;

export interface SortableHeaderProps<K extends string> {
  label: string;
  column: K;
  sort: SortState<K>;
  onSort: (column: K) => void;
  /** Numbers read best right-aligned, header included. */
  align?: 'left' | 'right';
}

/** A table header cell whose button sorts by its column; `aria-sort` tells screen readers the state. */
export function SortableHeader<K extends string>({
  label,
  column,
  sort,
  onSort,
  align = 'left',
}: SortableHeaderProps<K>) {
  const active = sort.key === column;
  const ariaSort = active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={ariaSort} className={`${TH_BASE} ${align === 'right' ? 'text-right' : 'text-left'}`}>
      <button
        type="button"
        onClick={() => onSort(column)}
        className="inline-flex min-h-9 items-center gap-1 rounded text-left font-semibold whitespace-nowrap text-slate-700 hover:text-brand-700"
      >
        {label}
        <span aria-hidden="true" className={`text-xs ${active ? 'text-brand-700' : 'text-slate-400'}`}>
          {active ? (sort.order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

export interface SortableColumn<K extends string> {
  key: K;
  label: string;
  numeric?: boolean;
}

/** The header row of a sortable table: one SortableHeader per column, with the spec's toggle rules. */
export function SortableHeaderRow<K extends string>({
  columns,
  sort,
  onSortChange,
}: {
  columns: readonly SortableColumn<K>[];
  sort: SortState<K>;
  onSortChange: (next: SortState<K>) => void;
}) {
  return (
    <tr>
      {columns.map((c) => (
        <SortableHeader
          key={c.key}
          label={c.label}
          column={c.key}
          sort={sort}
          onSort={(key) => onSortChange(nextSort(sort, key))}
          align={c.numeric ? 'right' : 'left'}
        />
      ))}
    </tr>
  );
}
