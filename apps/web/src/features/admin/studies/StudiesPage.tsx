import { useState } from 'react';
import { Link, useNavigate } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TableScroll } from '../../../components/TableScroll';
import { BackLink } from '../BackLink';
import { canEdit } from '../can-edit';
import { formatDateTime } from '../format';
import { StudyDiff } from './StudyDiff';
import { TemplatesCard } from './TemplatesCard';
import { UploadStudyCard } from './UploadStudyCard';
import { VersionSelect } from './VersionSelect';
import { Modal } from '../../../components/Modal';
import { useCloneStudyVersion, useDeleteStudyVersion, useStudyVersions } from './use-studies';

/**
 * `/admin/studies`: the study versions, a new draft from any of them, deleting one no experiment runs and nobody ran
 * (after a confirmation naming it), and a diff between two.
 */
export function StudiesPage() {
  const versions = useStudyVersions();
  const clone = useCloneStudyVersion();
  const remove = useDeleteStudyVersion();
  const [deleting, setDeleting] = useState<{ id: string; label: string } | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const navigate = useNavigate();
  const editor = canEdit();
  const [left, setLeft] = useState('');
  const [right, setRight] = useState('');

  const copy = (id: string) =>
    clone.mutate({ id }, { onSuccess: (created) => void navigate(`/admin/studies/${created.id}`) });

  return (
    <div className="space-y-6">
      <BackLink to="/admin">Back to Dashboard</BackLink>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Study versions</h1>
      <p className="text-slate-600">
        A study version holds everything participants read and the chat’s prompts. An experiment runs one version. A
        version that participants have run cannot change: clone it to make a new draft.
      </p>
      {clone.error && <Alert tone="error">{clone.error.message}</Alert>}
      {remove.error && <Alert tone="error">{remove.error.message}</Alert>}
      {deleted && (
        <p role="status" className="text-green-700">
          Deleted study version {deleted}.
        </p>
      )}
      {versions.isPending && <Spinner />}
      {versions.error && <Alert tone="error">{versions.error.message}</Alert>}
      {versions.data && (
        <Card>
          <TableScroll label="Study versions">
            <table className="min-w-full text-left text-sm">
              <thead>
                <tr className="border-b border-slate-200">
                  <th className="px-3 py-2">Label</th>
                  <th className="px-3 py-2">Study</th>
                  <th className="px-3 py-2">Experiments</th>
                  <th className="px-3 py-2">State</th>
                  <th className="px-3 py-2">Created</th>
                  <th className="px-3 py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {versions.data.map((v) => (
                  <tr key={v.id} className="border-b border-slate-100">
                    <td className="px-3 py-2">
                      <Link to={`/admin/studies/${v.id}`} className="font-medium text-brand-700 underline">
                        {v.label}
                      </Link>
                    </td>
                    <td className="px-3 py-2">{v.title}</td>
                    <td className="px-3 py-2">{v.experiments}</td>
                    <td className="px-3 py-2">{v.is_default ? 'Built-in' : v.locked ? 'In use (locked)' : 'Draft'}</td>
                    <td className="px-3 py-2">{formatDateTime(v.created_at)}</td>
                    <td className="px-3 py-2">
                      {editor && (
                        <div className="flex flex-wrap gap-2">
                          <Button variant="secondary" disabled={clone.isPending} onClick={() => copy(v.id)}>
                            Clone {v.label}
                          </Button>
                          {!v.is_default && !v.locked && v.experiments === 0 && (
                            <Button
                              variant="danger"
                              disabled={remove.isPending}
                              onClick={() => {
                                remove.reset();
                                setDeleted(null);
                                setDeleting({ id: v.id, label: v.label });
                              }}
                            >
                              Delete {v.label}...
                            </Button>
                          )}
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Card>
      )}
      <Modal
        open={deleting !== null}
        onOpenChange={(open) => !remove.isPending && !open && setDeleting(null)}
        title="Delete this study version?"
        description={
          deleting
            ? `"${deleting.label}" will be deleted for good. No experiment runs it and no participant ran it; versions cloned from it keep their own copy.`
            : undefined
        }
      >
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setDeleting(null)} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={() => {
              if (!deleting) return;
              const { id, label } = deleting;
              remove.mutate(id, {
                onSuccess: () => setDeleted(label),
                onSettled: () => setDeleting(null),
              });
            }}
          >
            {remove.isPending ? 'Deleting...' : 'Delete version'}
          </Button>
        </div>
      </Modal>
      {editor && <TemplatesCard onCreated={(id) => void navigate(`/admin/studies/${id}`)} />}
      {editor && <UploadStudyCard onCreated={(id) => void navigate(`/admin/studies/${id}`)} />}
      {versions.data && versions.data.length > 1 && (
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Compare two versions</h2>
          <div className="mt-3 flex flex-wrap gap-4">
            {(
              [
                ['From', left, setLeft],
                ['To', right, setRight],
              ] as const
            ).map(([label, value, set]) => (
              <VersionSelect key={label} label={label} value={value} versions={versions.data} onChange={set} />
            ))}
          </div>
          {left && right && <StudyDiff leftId={left} rightId={right} />}
        </Card>
      )}
    </div>
  );
}
