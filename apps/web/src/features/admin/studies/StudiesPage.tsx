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
import { useCloneStudyVersion, useStudyVersions } from './use-studies';

/** `/admin/studies`: the study versions, a new draft from any of them, and a diff between two. */
export function StudiesPage() {
  const versions = useStudyVersions();
  const clone = useCloneStudyVersion();
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
                        <Button variant="secondary" disabled={clone.isPending} onClick={() => copy(v.id)}>
                          Clone {v.label}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Card>
      )}
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
