import type { StudyIssue, StudyVersion } from '@studychat/contracts/web';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api';
import { BackLink } from '../BackLink';
import { canEdit } from '../can-edit';
import { TextArea } from '../TextArea';
import { StudyTimersForm } from './StudyTimersForm';
import { useCloneStudyVersion, useStudyVersion, useUpdateStudyVersion } from './use-studies';

/** `/admin/studies/:id`: one version's whole definition as JSON, editable while it is a draft. */
export function StudyEditorPage() {
  const { id = '' } = useParams();
  const version = useStudyVersion(id);
  if (version.error) return <Alert tone="error">{version.error.message}</Alert>;
  if (!version.data) return <Spinner />;
  // A fresh editor per version, so its fields start from the stored definition.
  return <StudyEditor key={version.data.id} version={version.data} />;
}

function StudyEditor({ version }: { version: StudyVersion }) {
  const navigate = useNavigate();
  const update = useUpdateStudyVersion(version.id);
  const clone = useCloneStudyVersion();
  const [label, setLabel] = useState(version.label);
  const [text, setText] = useState(() => JSON.stringify(version.definition, null, 2));
  const [issues, setIssues] = useState<StudyIssue[]>([]);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const editable = canEdit() && !version.locked && !version.is_default;

  const parsed = parseObject(text);

  const save = () => {
    setMessage(null);
    setIssues([]);
    if (!parsed.ok) return;
    update.mutate(
      { label: label.trim(), definition: parsed.value },
      {
        onSuccess: () => setMessage({ tone: 'success', text: 'Saved.' }),
        onError: (error) => {
          setMessage({ tone: 'error', text: error.message });
          if (error instanceof ApiError) setIssues(error.details.issues ?? []);
        },
      },
    );
  };

  return (
    <div className="space-y-6">
      <BackLink to="/admin/studies">Back to Study versions</BackLink>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{version.label}</h1>
      <p className="text-slate-600">
        {version.definition.title} · used by {version.experiments} experiment{version.experiments === 1 ? '' : 's'}
      </p>
      {!editable && (
        <Alert tone="info">
          {version.is_default
            ? 'This is the built-in study. It cannot change: clone it to make a draft you can edit.'
            : version.locked
              ? 'Participants have run this version, so it cannot change: clone it to make a draft you can edit.'
              : 'You can read this version; only admins edit study versions.'}
        </Alert>
      )}
      {canEdit() && (
        <Button
          variant="secondary"
          disabled={clone.isPending}
          onClick={() =>
            clone.mutate({ id: version.id }, { onSuccess: (created) => void navigate(`/admin/studies/${created.id}`) })
          }
        >
          Clone this version
        </Button>
      )}
      <Card>
        <div className="space-y-4">
          <TextField label="Label" value={label} readOnly={!editable} onChange={(e) => setLabel(e.target.value)} />
          {editable && parsed.ok && (
            <StudyTimersForm definition={parsed.value} onChange={(next) => setText(JSON.stringify(next, null, 2))} />
          )}
          <TextArea
            label="Study definition (JSON)"
            value={text}
            readOnly={!editable}
            rows={24}
            spellCheck={false}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs"
            aria-invalid={!parsed.ok || issues.length > 0}
            aria-describedby="study-json-problems"
            onChange={(e) => setText(e.target.value)}
          />
          <div id="study-json-problems" aria-live="polite">
            {!parsed.ok && <Alert tone="error">Not valid JSON: {parsed.error}</Alert>}
            {issues.length > 0 && (
              <Alert tone="error">
                <p className="font-semibold">The definition has {issues.length} problem(s):</p>
                <ul className="mt-1 list-disc pl-5">
                  {issues.map((issue, i) => (
                    <li key={i}>
                      <code>{issue.path || '(the whole definition)'}</code>: {issue.message}
                    </li>
                  ))}
                </ul>
              </Alert>
            )}
          </div>
          {message && issues.length === 0 && <Alert tone={message.tone}>{message.text}</Alert>}
          {editable && (
            <Button disabled={!parsed.ok || update.isPending || !label.trim()} onClick={save}>
              Save version
            </Button>
          )}
        </div>
      </Card>
    </div>
  );
}

function parseObject(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, error: 'the definition must be a JSON object' };
    }
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : 'cannot be read' };
  }
}
