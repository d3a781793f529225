import type { MonitorParticipant } from '@studychat/contracts/web';
import { useId, useState } from 'react';
import { Link } from '../../../lib/router';
import { TABLE_CLASS, TD_CLASS, TableScroll } from '../../../components/TableScroll';
import { formatDateTime } from '../format';
import { CATEGORY_LABEL, categoryOf, MONITOR_CATEGORIES } from '../participant-status';
import { TestRunBadge } from '../TestRunBadge';
import {
  CHAT_CLOSED_LABEL,
  duration,
  filterParticipants,
  PROLIFIC_STATUS_LABEL,
  stepText,
  usd,
  type StatusFilter,
} from './monitor-view';

/** Rows drawn at most: a large study is narrowed by search or status rather than drawn whole every reload. */
export const MONITOR_ROWS_SHOWN = 500;

const TH = 'sticky top-0 border-b border-slate-200 bg-slate-50 px-3 py-2 text-left font-semibold text-slate-700';

/**
 * Who is where: every participant with step, time on it, last seen, the limit that ended their chat (if one did:
 * the intervention may not have been delivered) and cost; search and status filter.
 */
export function MonitorParticipants({ rows }: { rows: readonly MonitorParticipant[] }) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const searchId = useId();
  const statusId = useId();
  const matching = filterParticipants(rows, search, status);
  const shown = matching.slice(0, MONITOR_ROWS_SHOWN);
  return (
    <div>
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-56 flex-1">
          <label htmlFor={searchId} className="block text-sm font-medium text-slate-800">
            Search by Prolific ID or login
          </label>
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="mt-1 block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40"
          />
        </div>
        <div>
          <label htmlFor={statusId} className="block text-sm font-medium text-slate-800">
            Status
          </label>
          <select
            id={statusId}
            value={status}
            onChange={(e) => setStatus(e.target.value as StatusFilter)}
            className="mt-1 block min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40"
          >
            <option value="all">All</option>
            {MONITOR_CATEGORIES.map((s) => (
              <option key={s} value={s}>
                {CATEGORY_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="mt-2 text-sm text-slate-600" aria-live="polite">
        Showing {shown.length} of {rows.length} participants
        {matching.length > shown.length &&
          ` (the first ${MONITOR_ROWS_SHOWN} of ${matching.length} matching: search or filter to narrow)`}
      </p>
      {shown.length > 0 && (
        <TableScroll maxHeight="60vh" label="Live participant list">
          <table className={TABLE_CLASS}>
            <thead>
              <tr>
                {[
                  'Prolific ID',
                  'On Prolific',
                  'Login',
                  'Condition',
                  'Status',
                  'Step',
                  'Time on step',
                  'Last seen',
                  'Pathway',
                  'Chat rounds',
                  'Chat ended by',
                  'Tokens',
                  'Cost',
                ].map((h) => (
                  <th key={h} scope="col" className={TH}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.assignment_id} data-testid="monitor-row" className="hover:bg-slate-50">
                  <td className={TD_CLASS}>
                    {row.prolific_pid ?? '-'}
                    {row.is_test && (
                      <TestRunBadge label="Test run" what="A preview run by an admin (preview as participant)" />
                    )}
                  </td>
                  <td className={TD_CLASS}>{row.prolific_status ? PROLIFIC_STATUS_LABEL[row.prolific_status] : '-'}</td>
                  <td className={TD_CLASS}>
                    <Link to={`/admin/user/${row.user_id}`} className="text-brand-700 hover:underline">
                      {row.login}
                    </Link>
                  </td>
                  <td className={TD_CLASS}>{row.condition ?? '-'}</td>
                  <td className={TD_CLASS}>
                    {row.stale ? (
                      <span className="rounded bg-amber-100 px-2 py-0.5 font-semibold text-amber-900">
                        {CATEGORY_LABEL[categoryOf(row)]}
                      </span>
                    ) : (
                      CATEGORY_LABEL[categoryOf(row)]
                    )}
                  </td>
                  <td className={TD_CLASS}>{stepText(row)}</td>
                  <td className={`${TD_CLASS} tabular-nums`}>
                    {/* A finished participant's clock stopped at completion (issue 34): no count that keeps going. */}
                    {row.status === 'completed' ? 'Done' : duration(row.seconds_on_step)}
                  </td>
                  <td className={TD_CLASS}>{formatDateTime(row.last_seen)}</td>
                  <td className={TD_CLASS}>{row.pathway ?? '-'}</td>
                  <td className={`${TD_CLASS} text-right tabular-nums`}>{row.chat_rounds}</td>
                  <td className={TD_CLASS}>
                    {row.chat_closed_by ? (
                      <span className="rounded bg-amber-100 px-2 py-0.5 font-semibold text-amber-900">
                        {CHAT_CLOSED_LABEL[row.chat_closed_by]}
                      </span>
                    ) : (
                      '-'
                    )}
                  </td>
                  <td className={`${TD_CLASS} text-right tabular-nums`}>{row.tokens}</td>
                  <td className={`${TD_CLASS} text-right tabular-nums`}>{usd(row.cost_usd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}
