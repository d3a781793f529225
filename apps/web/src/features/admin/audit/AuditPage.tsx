import { endpoints, type AuditEntry } from '@studychat/contracts/web';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TableScroll } from '../../../components/TableScroll';
import { api } from '../../../lib/api';
import { BackLink } from '../BackLink';
import { formatDateTime, serverMessage } from '../format';

const PAGE = 100;

function Target({ entry }: { entry: AuditEntry }) {
  if (!entry.target_type || !entry.target_id) return <>-</>;
  const short = `${entry.target_id.slice(0, 8)}…`;
  if (entry.target_type === 'user')
    return (
      <Link className="text-brand-700 underline" to={`/admin/user/${entry.target_id}`}>
        user {short}
      </Link>
    );
  if (entry.target_type === 'experiment') {
    return (
      <Link className="text-brand-700 underline" to={`/admin/experiments/${entry.target_id}`}>
        experiment {short}
      </Link>
    );
  }
  return <>{`${entry.target_type} ${short}`}</>;
}

function details(entry: AuditEntry): string {
  if (!entry.details) return '';
  return Object.entries(entry.details)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('; ');
}

/** `/admin/audit`: who did what in the admin area, and when, newest first. */
export function AuditPage() {
  const log = useInfiniteQuery({
    queryKey: ['admin', 'audit'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api(endpoints.security.auditLog, { query: { limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}) }, signal }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <div className="space-y-4">
      <BackLink to="/admin">Back to Dashboard</BackLink>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Audit log</h1>
      <p className="text-slate-600">
        Edits, study logins generated, downloads and views of a participant&apos;s data, by admins and analysts.
      </p>
      <Card className="overflow-hidden p-0!">
        {log.isPending ? (
          <div className="p-5 sm:p-6">
            <Spinner label="Loading the audit log..." />
          </div>
        ) : log.isError ? (
          <div className="p-5 sm:p-6">
            <Alert>
              <p>{serverMessage(log.error, 'Failed to load the audit log.')}</p>
            </Alert>
          </div>
        ) : entries.length === 0 ? (
          <p className="p-5 text-slate-600 sm:p-6">Nothing recorded yet.</p>
        ) : (
          <TableScroll label="Audit log">
            <table className="min-w-full text-left text-sm">
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    When
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Who
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    What
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    On
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Details
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {entries.map((entry) => (
                  <tr key={entry.id}>
                    <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(entry.created_at)}</td>
                    <td className="px-4 py-3">{entry.actor_email}</td>
                    <td className="px-4 py-3 font-mono">{entry.action}</td>
                    <td className="px-4 py-3">
                      <Target entry={entry} />
                    </td>
                    <td className="px-4 py-3 text-slate-700">{details(entry)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Card>
      {log.hasNextPage && (
        <Button variant="secondary" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {log.isFetchingNextPage ? 'Loading...' : 'Show older entries'}
        </Button>
      )}
    </div>
  );
}
