import type { CreatedStaff, StaffMember, StaffRole } from '@studychat/contracts/web';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { CopyButton } from '../../../components/CopyButton';
import { Modal } from '../../../components/Modal';
import { Spinner } from '../../../components/Spinner';
import { TABLE_CLASS, TD_CLASS, TD_DATE_CLASS, TableScroll } from '../../../components/TableScroll';
import { TextField } from '../../../components/TextField';
import { currentUser } from '../../../lib/session';
import { BackLink } from '../BackLink';
import { canEdit } from '../can-edit';
import { formatDateTime, serverMessage } from '../format';
import { useStaff } from './use-staff';

const ROLE_LABEL: Record<StaffRole, string> = { admin: 'Admin', analyst: 'Analyst' };
const TH = 'border-b border-slate-200 bg-slate-50 px-3 py-2 text-left font-semibold text-slate-700';
const SELECT =
  'mt-1 block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40';

/** A change that asks first: what it does to whom, in words, before anything is sent. */
type Pending =
  | { kind: 'remove'; member: StaffMember }
  | { kind: 'role'; member: StaffMember; role: StaffRole }
  | { kind: 'totp'; member: StaffMember };

function confirmText(p: Pending): { title: string; body: string; action: string } {
  switch (p.kind) {
    case 'remove':
      return {
        title: `Remove ${p.member.email}?`,
        body: 'Their account is deleted and they are logged out at once; they can no longer log in. The audit log keeps their email and what they did.',
        action: 'Remove account',
      };
    case 'role':
      return {
        title: `Make ${p.member.email} ${p.role === 'admin' ? 'an admin' : 'an analyst'}?`,
        body:
          p.role === 'admin'
            ? 'Admins change experiments, studies and people. They are logged out now and log in again with the new role.'
            : 'Analysts only read and export. They are logged out now and log in again with the new role.',
        action: `Make ${ROLE_LABEL[p.role].toLowerCase()}`,
      };
    case 'totp':
      return {
        title: `Reset two-factor authentication of ${p.member.email}?`,
        body: 'For a lost or replaced phone: their authenticator codes stop working and they are logged out. Their password alone logs in next, and they set two-factor up again on the Security page.',
        action: 'Reset two-factor',
      };
  }
}

function AddForm({ onCreated }: { onCreated: (created: CreatedStaff) => void }) {
  const { create } = useStaff();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('analyst');
  const roleId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (created) => {
          setEmail('');
          onCreated(created);
        },
      },
    );
  }
  return (
    <form noValidate onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="off"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        required
      />
      <div>
        <label htmlFor={roleId} className="block text-sm font-medium text-slate-800">
          Role
        </label>
        <select id={roleId} value={role} onChange={(e) => setRole(e.target.value as StaffRole)} className={SELECT}>
          <option value="analyst">Analyst (reads and exports)</option>
          <option value="admin">Admin (changes everything)</option>
        </select>
      </div>
      <Button type="submit" disabled={create.isPending || email.trim() === ''}>
        {create.isPending ? 'Adding...' : 'Add account'}
      </Button>
      {create.isError && (
        <Alert className="sm:col-span-3">
          <p>{serverMessage(create.error, 'Could not add the account.')}</p>
        </Alert>
      )}
    </form>
  );
}

function Created({ created, onDone }: { created: CreatedStaff; onDone: () => void }) {
  return (
    <Alert tone="success" className="mt-4">
      <p className="font-semibold">
        {created.email} can now log in as {created.role === 'admin' ? 'an admin' : 'an analyst'}.
      </p>
      <p className="mt-1">
        Their one-time password is shown only now: pass it on privately (not by the same channel as the email).
      </p>
      <p className="mt-2 flex flex-wrap items-center gap-2">
        <code
          className="rounded bg-white px-2 py-1 font-mono text-base break-all text-slate-900"
          data-testid="new-password"
        >
          {created.password}
        </code>
        <CopyButton text={created.password} label="Copy the password" />
      </p>
      <Button variant="secondary" className="mt-3" onClick={onDone}>
        Done, hide the password
      </Button>
    </Alert>
  );
}

/** `/admin/people`: admins and analysts, added, changed and removed by an admin (issue 34). */
export function StaffPage() {
  if (!canEdit()) {
    return (
      <div className="space-y-4">
        <BackLink to="/admin/users">Back to Users</BackLink>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Admins and analysts</h1>
        <Alert tone="info">Only admins manage the people of the admin area.</Alert>
      </div>
    );
  }
  return <StaffManager />;
}

function StaffManager() {
  const { list, setRole, remove, resetTotp } = useStaff();
  const [created, setCreated] = useState<CreatedStaff | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const me = currentUser()?.userId;
  const busy = setRole.isPending || remove.isPending || resetTotp.isPending;
  const failed = [setRole, remove, resetTotp].find((m) => m.isError);

  function ask(p: Pending) {
    for (const m of [setRole, remove, resetTotp]) m.reset();
    setDone(null);
    setPending(p);
  }

  function confirm(p: Pending) {
    const after = (text: string) => () => {
      setPending(null);
      setDone(text);
    };
    if (p.kind === 'remove') remove.mutate(p.member.id, { onSuccess: after(`${p.member.email} was removed.`) });
    if (p.kind === 'role')
      setRole.mutate(
        { id: p.member.id, role: p.role },
        { onSuccess: after(`${p.member.email} is now ${p.role === 'admin' ? 'an admin' : 'an analyst'}.`) },
      );
    if (p.kind === 'totp')
      resetTotp.mutate(p.member.id, { onSuccess: after(`Two-factor authentication of ${p.member.email} was reset.`) });
  }

  const text = pending ? confirmText(pending) : null;
  return (
    <div className="space-y-4">
      <BackLink to="/admin/users">Back to Users</BackLink>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Admins and analysts</h1>
      <p className="text-slate-700">
        Admins change experiments, studies and people; analysts only read and export. Every change here is in the audit
        log. Participants are study logins: they are made on an experiment&apos;s page.
      </p>
      <Card>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">Add an admin or analyst</h2>
        <AddForm
          onCreated={(c) => {
            setDone(null);
            setCreated(c);
          }}
        />
        {created && <Created created={created} onDone={() => setCreated(null)} />}
      </Card>
      {done && <Alert tone="success">{done}</Alert>}
      <Card className="overflow-hidden p-0!">
        {list.isPending ? (
          <div className="p-5 sm:p-6">
            <Spinner label="Loading admins and analysts..." />
          </div>
        ) : list.isError ? (
          <div className="p-5 sm:p-6">
            <Alert>{serverMessage(list.error, 'Failed to load the admins and analysts.')}</Alert>
          </div>
        ) : (
          <TableScroll label="Admins and analysts" bleed={false}>
            <table className={TABLE_CLASS}>
              <thead>
                <tr>
                  {['Email', 'Role', 'Two-factor', 'Last Login', 'Actions'].map((h) => (
                    <th key={h} scope="col" className={TH}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {list.data.map((member) => {
                  const self = member.id === me;
                  return (
                    <tr key={member.id} data-testid="staff-row">
                      <td className={TD_CLASS}>
                        {member.email}
                        {self && <span className="ml-2 text-sm text-slate-600">(you)</span>}
                      </td>
                      <td className={TD_CLASS}>
                        {self ? (
                          ROLE_LABEL[member.role]
                        ) : (
                          <select
                            aria-label={`Role of ${member.email}`}
                            value={member.role}
                            disabled={busy}
                            onChange={(e) => ask({ kind: 'role', member, role: e.target.value as StaffRole })}
                            className="min-h-11 rounded-lg border border-slate-300 bg-white px-2 py-1 text-base"
                          >
                            <option value="admin">Admin</option>
                            <option value="analyst">Analyst</option>
                          </select>
                        )}
                      </td>
                      <td className={TD_CLASS}>{member.totp_enabled ? 'On' : 'Off'}</td>
                      <td className={TD_DATE_CLASS}>{formatDateTime(member.last_login_at, 'Never')}</td>
                      <td className={TD_CLASS}>
                        {self ? (
                          <span className="text-sm text-slate-600">Another admin changes your account</span>
                        ) : (
                          <div className="flex flex-wrap gap-2">
                            {member.totp_enabled && (
                              <Button
                                variant="secondary"
                                disabled={busy}
                                onClick={() => ask({ kind: 'totp', member })}
                                aria-label={`Reset two-factor of ${member.email}`}
                              >
                                Reset two-factor
                              </Button>
                            )}
                            <Button
                              variant="danger"
                              disabled={busy}
                              onClick={() => ask({ kind: 'remove', member })}
                              aria-label={`Remove ${member.email}`}
                            >
                              Remove
                            </Button>
                          </div>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Card>
      <Modal
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        title={text?.title ?? ''}
        description={text?.body}
      >
        {failed && (
          <Alert className="mb-4">
            <p>{serverMessage(failed.error, 'That change did not go through.')}</p>
          </Alert>
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setPending(null)}>
            Cancel
          </Button>
          <Button
            variant={pending?.kind === 'remove' ? 'danger' : 'primary'}
            disabled={busy}
            onClick={() => pending && confirm(pending)}
          >
            {text?.action}
          </Button>
        </div>
      </Modal>
    </div>
  );
}
