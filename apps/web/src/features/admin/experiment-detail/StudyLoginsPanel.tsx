import type { StudyLogin, StudyLoginStatus } from '@studychat/contracts/web';
import { useState } from 'react';
import { Card } from '../../../components/Card';
import { TH_CLASS } from '../../../components/SortableHeader';
import { Spinner } from '../../../components/Spinner';
import { TABLE_CLASS, TD_CLASS, TD_DATE_CLASS, TableScroll } from '../../../components/TableScroll';
import { formatDateTime, serverMessage } from '../format';
import { useStudyLogins } from './use-experiment-detail';

type Filter = 'all' | 'used' | 'unused';

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'used', label: 'Used' },
  { value: 'unused', label: 'Unused' },
];

const STATUS: Record<StudyLoginStatus, { label: string; className: string }> = {
  unused: { label: 'Unused', className: 'bg-slate-100 text-slate-700' },
  logged_in: { label: 'Logged in', className: 'bg-amber-100 text-amber-900' },
  joined: { label: 'Joined', className: 'bg-brand-100 text-brand-900' },
  completed: { label: 'Completed', className: 'bg-green-100 text-green-900' },
};

function matches(login: StudyLogin, filter: Filter): boolean {
  if (filter === 'all') return true;
  return (login.status === 'unused') === (filter === 'unused');
}

/**
 * 'Study Logins': every login generated for the experiment and whether it was used (logged in or joined),
 * so the researcher sees how many are left before Prolific runs out of credentials.
 */
export function StudyLoginsPanel({ experimentId }: { experimentId: string }) {
  const logins = useStudyLogins(experimentId);
  const [filter, setFilter] = useState<Filter>('all');

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Study Logins</h2>
      <p className="mt-1 text-sm text-slate-600">
        Used means the login has logged in or joined the study. Passwords are not kept and cannot be shown again.
      </p>
      <div className="mt-3">
        {logins.isPending ? (
          <Spinner label="Loading study logins..." />
        ) : logins.isError ? (
          <p role="alert" className="text-red-700">
            Failed to load study logins: {serverMessage(logins.error, 'Failed to load data')}
          </p>
        ) : logins.data.total === 0 ? (
          <p className="text-slate-700">No study logins generated yet.</p>
        ) : (
          <div className="space-y-4">
            <dl className="grid grid-cols-3 gap-3">
              {[
                { term: 'Generated', value: logins.data.total },
                { term: 'Used', value: logins.data.used },
                { term: 'Unused', value: logins.data.unused },
              ].map(({ term, value }) => (
                <div key={term} className="rounded-lg bg-slate-100 p-3">
                  <dt className="text-sm text-slate-700">{term}</dt>
                  <dd className="text-2xl font-bold text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
            <div role="group" aria-label="Show logins" className="flex flex-wrap gap-2">
              {FILTERS.map((f) => (
                <button
                  key={f.value}
                  type="button"
                  aria-pressed={filter === f.value}
                  onClick={() => setFilter(f.value)}
                  className={`min-h-11 rounded-lg border px-4 text-sm font-semibold ${filter === f.value ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100'}`}
                >
                  {f.label}
                </button>
              ))}
            </div>
            <LoginsTable logins={logins.data.logins.filter((l) => matches(l, filter))} />
          </div>
        )}
      </div>
    </Card>
  );
}

function LoginsTable({ logins }: { logins: StudyLogin[] }) {
  if (logins.length === 0) return <p className="text-slate-700">No logins match this filter.</p>;
  return (
    <TableScroll maxHeight="24rem" label="Study logins">
      <table className={TABLE_CLASS}>
        <thead>
          <tr>
            {['Username (Email)', 'Status', 'Prolific ID', 'Last Login', 'Generated'].map((h) => (
              <th key={h} scope="col" className={TH_CLASS}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {logins.map((login) => (
            <tr key={login.email}>
              <td className={`${TD_CLASS} font-mono`}>{login.email}</td>
              <td className={TD_CLASS}>
                <span
                  className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS[login.status].className}`}
                >
                  {STATUS[login.status].label}
                </span>
              </td>
              <td className={`${TD_CLASS} font-mono`}>{login.prolific_pid ?? '-'}</td>
              <td className={TD_DATE_CLASS}>{formatDateTime(login.last_login_at, 'Never')}</td>
              <td className={TD_DATE_CLASS}>{formatDateTime(login.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
