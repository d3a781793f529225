import type { DetailedParticipantRow } from '@studychat/contracts/web';
import { useState } from 'react';
import { Link } from '../../../lib/router';
import { SortableHeaderRow } from '../../../components/SortableHeader';
import { sortRows, type SortState } from '../../../components/sorting';
import { TABLE_CLASS, TD_CLASS, TD_DATE_CLASS, TableScroll } from '../../../components/TableScroll';
import { formatDateTime, shortId } from '../format';
import { STATUS_LABEL } from '../participant-status';
import { TestRunBadge } from '../TestRunBadge';

export type ParticipantColumn = Exclude<keyof DetailedParticipantRow, 'assignment_id' | 'is_test'>;

export const DEFAULT_PARTICIPANT_SORT: SortState<ParticipantColumn> = { key: 'assigned_condition', order: 'asc' };

const COLUMNS: { key: ParticipantColumn; label: string; numeric?: boolean }[] = [
  { key: 'user_id', label: 'User' },
  { key: 'assigned_condition', label: 'Condition' },
  { key: 'status', label: 'Status' },
  { key: 'last_login_at', label: 'Last Login' },
  { key: 'chat_turns', label: 'Chat Turns', numeric: true },
  { key: 'user_char_count', label: 'User Chars', numeric: true },
  { key: 'pre_intent', label: 'Pre Intent', numeric: true },
  { key: 'post_intent', label: 'Post Intent', numeric: true },
  { key: 'delta', label: 'Delta', numeric: true },
];

function formatDelta(delta: number | null): string {
  if (delta === null) return '-';
  return delta > 0 ? `+${delta}` : String(delta);
}

/** The participants of an experiment, sortable by every column (empty values last). */
export function ParticipantsTable({ rows }: { rows: readonly DetailedParticipantRow[] }) {
  const [sort, setSort] = useState(DEFAULT_PARTICIPANT_SORT);
  if (rows.length === 0) return <p className="text-slate-600">No participants found.</p>;
  const sorted = sortRows(rows, sort, (row, key) => row[key]);
  return (
    <TableScroll maxHeight="70vh" label="Participants">
      <table className={TABLE_CLASS}>
        <thead>
          <SortableHeaderRow columns={COLUMNS} sort={sort} onSortChange={setSort} />
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={row.assignment_id} className="hover:bg-slate-50">
              <td className={TD_CLASS}>
                <Link
                  to={`/admin/user/${row.user_id}`}
                  title={row.user_id}
                  className="font-mono text-brand-700 hover:underline"
                >
                  {shortId(row.user_id)}...
                </Link>
                {row.is_test && <TestRunBadge />}
              </td>
              <td className={TD_CLASS}>{row.assigned_condition ?? '-'}</td>
              <td className={TD_CLASS}>{STATUS_LABEL[row.status]}</td>
              <td className={TD_DATE_CLASS}>{formatDateTime(row.last_login_at, 'Never')}</td>
              <td className={`${TD_CLASS} text-right tabular-nums`}>{row.chat_turns}</td>
              <td className={`${TD_CLASS} text-right tabular-nums`}>{row.user_char_count}</td>
              <td className={`${TD_CLASS} text-right tabular-nums`}>{row.pre_intent ?? '-'}</td>
              <td className={`${TD_CLASS} text-right tabular-nums`}>{row.post_intent ?? '-'}</td>
              <td
                className={`${TD_CLASS} text-right font-semibold tabular-nums ${row.delta !== null && row.delta > 0 ? 'text-green-700' : row.delta !== null && row.delta < 0 ? 'text-red-700' : ''}`}
              >
                {formatDelta(row.delta)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
