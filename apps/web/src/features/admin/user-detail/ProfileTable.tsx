import type { AdminUser, Assignment } from '@studychat/contracts/web';
import type { ReactNode } from 'react';
import { formatDateTime } from '../format';
import { TestRunBadge } from '../TestRunBadge';

/** Distinct Prolific ids from the user's assignments, comma-joined, or a dash when none. */
export function prolificIds(assignments: readonly Assignment[] | undefined): string {
  const ids = [...new Set((assignments ?? []).map((a) => a.prolific_pid).filter((pid): pid is string => !!pid))];
  return ids.length > 0 ? ids.join(', ') : '-';
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <tr className="border-b border-slate-100 last:border-0">
      <th scope="row" className="w-32 py-2 pr-4 text-left sm:w-40 align-top text-sm font-semibold text-slate-600">
        {label}
      </th>
      <td className="py-2 align-top break-all">{children}</td>
    </tr>
  );
}

/** The user's profile: ids, dates, admin flag, Prolific ids and metadata. */
export function ProfileTable({
  user,
  assignments,
}: {
  user: AdminUser;
  assignments: readonly Assignment[] | undefined;
}) {
  const hasMetadata = user.metadata !== null && Object.keys(user.metadata).length > 0;
  return (
    // Fixed layout: a long id or the metadata wraps or scrolls in its cell instead of widening the page on a phone.
    <table className="w-full table-fixed text-sm">
      <tbody>
        <Row label="ID">
          <span className="font-mono">{user.id}</span>
        </Row>
        <Row label="Email">
          {user.email}
          {user.is_test && <TestRunBadge what="A preview's login, made by an admin" />}
        </Row>
        <Row label="Created At">{formatDateTime(user.created_at)}</Row>
        <Row label="Updated At">{formatDateTime(user.updated_at)}</Row>
        <Row label="Last Login">{formatDateTime(user.last_login_at, 'Never')}</Row>
        <Row label="Admin">{user.is_admin ? 'Yes' : 'No'}</Row>
        <Row label="Prolific ID(s)">
          <span className="font-mono">{prolificIds(assignments)}</span>
        </Row>
        {hasMetadata && (
          <Row label="Metadata">
            <pre className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs break-normal whitespace-pre">
              {JSON.stringify(user.metadata, null, 2)}
            </pre>
          </Row>
        )}
      </tbody>
    </table>
  );
}
