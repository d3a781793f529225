import type { StudyLogin, StudyLoginStatus } from '@studychat/contracts/web';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Modal } from '../../../components/Modal';
import { downloadText } from '../../../lib/download';
import { canEdit } from '../can-edit';
import { unusedLoginsCsv, unusedLoginsCsvName } from './credentials';
import { TH_CLASS } from '../../../components/SortableHeader';
import { Spinner } from '../../../components/Spinner';
import { TABLE_CLASS, TD_CLASS, TD_DATE_CLASS, TableScroll } from '../../../components/TableScroll';
import { errorText, formatDateTime, serverMessage } from '../format';
import { useRevokeLogin, useStudyLogins } from './use-experiment-detail';

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
  revoked: { label: 'Revoked', className: 'bg-red-100 text-red-900' },
};

function matches(login: StudyLogin, filter: Filter): boolean {
  if (filter === 'all') return true;
  return (login.status === 'unused') === (filter === 'unused');
}

/**
 * 'Study Logins': every login generated for the experiment and whether it was used (logged in or joined),
 * so the researcher sees how many are left before Prolific runs out of credentials; the unused ones as CSV (to
 * remove from Prolific), and a login revoked after a confirmation (admins; docs/decisions/0077).
 */
export function StudyLoginsPanel({ experimentId }: { experimentId: string }) {
  const logins = useStudyLogins(experimentId);
  const revoke = useRevokeLogin(experimentId);
  const [filter, setFilter] = useState<Filter>('all');
  const [revoking, setRevoking] = useState<StudyLogin | null>(null);
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const editable = canEdit();

  function confirmRevoke() {
    if (!revoking) return;
    const { email } = revoking;
    revoke.mutate(email, {
      onSuccess: (reply) => {
        setNotice({
          tone: 'ok',
          text: `Revoked ${reply.email}: it can no longer log in${reply.sessions_ended > 0 ? `, and ${reply.sessions_ended} open session(s) were ended` : ''}.`,
        });
        setRevoking(null);
      },
      onError: (e) => {
        setNotice({ tone: 'error', text: errorText(e) });
        setRevoking(null);
      },
    });
  }

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
            {logins.data.unused > 0 && (
              <div className="flex flex-wrap items-center gap-3">
                <Button
                  variant="secondary"
                  onClick={() =>
                    downloadText(unusedLoginsCsvName(experimentId, new Date()), unusedLoginsCsv(logins.data.logins))
                  }
                >
                  Download unused logins (CSV)
                </Button>
                <p className="text-sm text-slate-600">The list to remove from Prolific once you have your sample.</p>
              </div>
            )}
            {notice && (
              <p
                role={notice.tone === 'error' ? 'alert' : 'status'}
                className={notice.tone === 'error' ? 'text-red-700' : 'text-green-700'}
              >
                {notice.text}
              </p>
            )}
            <LoginsTable
              logins={logins.data.logins.filter((l) => matches(l, filter))}
              onRevoke={editable ? setRevoking : undefined}
            />
          </div>
        )}
      </div>
      <Modal
        open={revoking !== null}
        onOpenChange={(open) => !revoke.isPending && !open && setRevoking(null)}
        title="Revoke this study login?"
        description={
          revoking
            ? `${revoking.email} will stop working at once: it cannot log in again${revoking.status === 'joined' || revoking.status === 'logged_in' ? ', and whoever is using it now is logged out and told the login was withdrawn' : ''}. Its data is kept. This cannot be undone.`
            : undefined
        }
      >
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setRevoking(null)} disabled={revoke.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirmRevoke} disabled={revoke.isPending}>
            {revoke.isPending ? 'Revoking...' : 'Revoke login'}
          </Button>
        </div>
      </Modal>
    </Card>
  );
}

function LoginsTable({
  logins,
  onRevoke,
}: {
  logins: StudyLogin[];
  onRevoke?: ((login: StudyLogin) => void) | undefined;
}) {
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
            {onRevoke && (
              <th scope="col" className={TH_CLASS}>
                <span className="sr-only">Actions</span>
              </th>
            )}
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
              {onRevoke && (
                <td className={`${TD_CLASS} text-right`}>
                  {login.status !== 'revoked' && (
                    <button
                      type="button"
                      onClick={() => onRevoke(login)}
                      aria-label={`Revoke ${login.email}`}
                      className="min-h-11 rounded-lg px-3 font-semibold text-red-700 hover:bg-red-50 hover:underline"
                    >
                      Revoke
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
