import type { UserSortField } from '@studychat/contracts/web';
import { useState } from 'react';
import { Link } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Card } from '../../../components/Card';
import { SortableHeaderRow } from '../../../components/SortableHeader';
import { type SortState } from '../../../components/sorting';
import { Spinner } from '../../../components/Spinner';
import { TABLE_CLASS, TD_CLASS, TD_DATE_CLASS, TableScroll } from '../../../components/TableScroll';
import { BackLink } from '../BackLink';
import { canEdit } from '../can-edit';
import { TestRunBadge } from '../TestRunBadge';
import { formatDateTime, shortId } from '../format';
import { useUsers } from './use-users';

export const DEFAULT_USER_SORT: SortState<UserSortField> = { key: 'created_at', order: 'desc' };

const COLUMNS: { key: UserSortField; label: string }[] = [
  { key: 'id', label: 'ID' },
  { key: 'email', label: 'Email' },
  { key: 'created_at', label: 'Created At' },
  { key: 'last_login_at', label: 'Last Login' },
  { key: 'is_admin', label: 'Admin' },
];

/** `/admin/users`: every user, sorted by the server. */
export function UsersPage() {
  const [sort, setSort] = useState(DEFAULT_USER_SORT);
  const { data: users, isPending, isError, isFetching } = useUsers(sort);

  return (
    <div className="space-y-4">
      <BackLink to="/admin">Back to Dashboard</BackLink>
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Users</h1>
        {users && <p className="text-slate-600">{users.length === 1 ? '1 user' : `${users.length} users`}</p>}
        {isFetching && !isPending && <Spinner label="Updating..." />}
        {canEdit() && (
          <Link to="/admin/people" className="ml-auto font-semibold text-brand-700 underline underline-offset-2">
            Manage admins and analysts
          </Link>
        )}
      </div>
      <Card className="overflow-hidden p-0!">
        {isPending ? (
          <div className="p-5 sm:p-6">
            <Spinner label="Loading users..." />
          </div>
        ) : isError ? (
          <div className="p-5 sm:p-6">
            <Alert>Failed to load users. Please check your authorization.</Alert>
          </div>
        ) : users.length === 0 ? (
          <p className="p-5 text-slate-600 sm:p-6">No users found</p>
        ) : (
          <TableScroll maxHeight="70vh" label="Users" bleed={false}>
            <table className={TABLE_CLASS}>
              <thead>
                <SortableHeaderRow columns={COLUMNS} sort={sort} onSortChange={setSort} />
              </thead>
              <tbody>
                {users.map((user) => (
                  <tr key={user.id} className="hover:bg-slate-50">
                    <td className={TD_CLASS}>
                      <Link
                        to={`/admin/user/${user.id}`}
                        className="font-mono text-brand-700 hover:underline"
                        title={user.id}
                      >
                        {shortId(user.id)}
                      </Link>
                    </td>
                    <td className={TD_CLASS}>
                      {user.email}
                      {user.is_test && <TestRunBadge what="A preview's login, made by an admin" />}
                    </td>
                    <td className={TD_DATE_CLASS}>{formatDateTime(user.created_at)}</td>
                    <td className={TD_DATE_CLASS}>{formatDateTime(user.last_login_at, 'Never')}</td>
                    <td className={TD_CLASS}>
                      <YesNoBadge value={user.is_admin} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Card>
    </div>
  );
}

/** A Yes/No badge. */
export function YesNoBadge({ value }: { value: boolean }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${value ? 'bg-brand-100 text-brand-900' : 'bg-slate-100 text-slate-700'}`}
    >
      {value ? 'Yes' : 'No'}
    </span>
  );
}
