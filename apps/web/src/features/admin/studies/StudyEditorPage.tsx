import { useParams } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Spinner } from '../../../components/Spinner';
import { BackLink } from '../BackLink';
import { canEdit } from '../can-edit';
import { isFlowDefinition } from '@studychat/contracts/web';
import { StudyEditor } from './editor/StudyEditor';
import { FlowVersionView } from './FlowVersionView';
import { downloadText, studyFileName, studyFileText } from './study-file';
import { useStudyVersion } from './use-studies';

/** `/admin/studies/:id`: one version's definition as forms and JSON, editable while it is a draft. */
export function StudyEditorPage() {
  const { id = '' } = useParams();
  const version = useStudyVersion(id);
  if (version.error) return <Alert tone="error">{version.error.message}</Alert>;
  if (!version.data) return <Spinner />;
  const v = version.data;
  const editable = canEdit() && !v.locked && !v.is_default;
  return (
    <div className="space-y-6">
      <BackLink to="/admin/studies">Back to Study versions</BackLink>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{v.label}</h1>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-slate-600">
          {v.definition.title} · used by {v.experiments} experiment{v.experiments === 1 ? '' : 's'}
        </p>
        <Button variant="secondary" onClick={() => downloadText(studyFileName(v.label), studyFileText(v.definition))}>
          Download study file
        </Button>
      </div>
      {!editable && (
        <Alert tone="info">
          {v.is_default
            ? 'This is the built-in study. It cannot change: clone it to make a draft you can edit.'
            : v.locked
              ? 'Participants have run this version, so it cannot change: clone it to make a draft you can edit.'
              : 'You can read this version; only admins edit study versions.'}
        </Alert>
      )}
      {isFlowDefinition(v.definition) ? (
        <FlowVersionView key={v.id} version={v} flow={v.definition} editable={editable} />
      ) : (
        /* A fresh editor per version, so its draft starts from the stored definition. */
        <StudyEditor key={v.id} version={v} />
      )}
    </div>
  );
}
