import type { StudyIssue, StudyVersion } from '@studychat/contracts/web';
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from '../../../../lib/router';
import { Alert } from '../../../../components/Alert';
import { Button } from '../../../../components/Button';
import { Card } from '../../../../components/Card';
import { TextField } from '../../../../components/TextField';
import { ApiError } from '../../../../lib/api';
import { canEdit } from '../../can-edit';
import { useCloneStudyVersion, useUpdateStudyVersion } from '../use-studies';
import { DraftContext, issueIndex, type DraftApi } from './draft-context';
import { IssueSummary } from './IssueSummary';
import { JsonView } from './JsonView';
import { draftConditions, hasForm, StudyForms } from './StudyForms';
import { useLiveIssues } from './use-live-issues';
import { LeaveDialog } from './LeaveDialog';
import { leavingOptions, useUnsavedGuard } from './use-unsaved-guard';
import { useStudyDraft } from './use-study-draft';

/** One version's definition as forms and as JSON (one draft), saved as a whole; the server checks it. */
export function StudyEditor({ version }: { version: StudyVersion }) {
  const navigate = useNavigate();
  const update = useUpdateStudyVersion(version.id);
  const clone = useCloneStudyVersion();
  const draft = useStudyDraft(version);
  // The problems shown: a refused save's while the draft is what was sent, else the live check's.
  const [refused, setRefused] = useState<{ text: string; issues: StudyIssue[] } | null>(null);
  const [focusRequest, setFocusRequest] = useState<string | null>(null);
  const clearFocusRequest = useCallback(() => setFocusRequest(null), []);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const jsonId = useId();
  const typeStash = useRef<DraftApi['typeStash']>(new Map()).current;
  const editable = canEdit() && !version.locked && !version.is_default;
  const guard = useUnsavedGuard(editable && draft.dirty);
  const live = useLiveIssues(draft.text, editable);
  const issues = useMemo(
    () => (refused?.text === draft.text ? refused.issues : (live?.issues ?? [])),
    [refused, draft.text, live],
  );

  const { parsed, edit } = draft;
  const api = useMemo<DraftApi | null>(
    () =>
      parsed.ok
        ? {
            draft: parsed.value,
            edit,
            issues,
            issuesAt: issueIndex(issues),
            readOnly: !editable,
            focusRequest,
            clearFocusRequest,
            typeStash,
          }
        : null,
    [parsed, edit, issues, editable, focusRequest, clearFocusRequest, typeStash],
  );

  /** An issue in the summary leads to its field, or to the JSON view when no form holds it. */
  const showIssue = (path: string) => {
    if (api && hasForm(path, draftConditions(api.draft))) setFocusRequest(path);
    else document.getElementById(jsonId)?.focus();
  };

  const save = () => {
    setMessage(null);
    if (!parsed.ok) return;
    const sent = { label: draft.label.trim(), text: draft.text };
    update.mutate(
      { label: sent.label, definition: parsed.value },
      {
        onSuccess: () => {
          setRefused(null);
          draft.markSaved({ label: draft.label, text: sent.text });
          setMessage({ tone: 'success', text: 'Saved.' });
        },
        onError: (error) => {
          const found = error instanceof ApiError ? (error.details.issues ?? []) : [];
          setRefused({ text: sent.text, issues: found });
          setMessage(found.length > 0 ? null : { tone: 'error', text: error.message });
        },
      },
    );
  };

  const cloneVersion = () => {
    guard.ask(() =>
      clone.mutate(
        { id: version.id },
        { onSuccess: (created) => void navigate(`/admin/studies/${created.id}`, leavingOptions()) },
      ),
    );
  };

  return (
    <>
      <LeaveDialog guard={guard} />
      {canEdit() && (
        <Button variant="secondary" disabled={clone.isPending} onClick={cloneVersion}>
          Clone this version
        </Button>
      )}
      <Card>
        <div className="space-y-4">
          <TextField
            label="Label"
            value={draft.label}
            readOnly={!editable}
            onChange={(e) => draft.setLabel(e.target.value)}
          />
          {api && (
            <DraftContext.Provider value={api}>
              <StudyForms />
            </DraftContext.Provider>
          )}
          <JsonView
            id={jsonId}
            text={draft.text}
            error={parsed.ok ? null : parsed.error}
            invalid={!parsed.ok || issues.length > 0}
            readOnly={!editable}
            onChange={draft.setText}
          />
          <div aria-live="polite">
            <IssueSummary issues={issues} onSelect={showIssue} />
          </div>
          {editable && (
            <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 sm:-mx-6 sm:px-6">
              <Button disabled={!parsed.ok || update.isPending || !draft.label.trim()} onClick={save}>
                Save version
              </Button>
              <span className="text-sm text-slate-700" aria-live="polite">
                {issues.length > 0 ? (
                  <span className="font-semibold text-red-700">
                    {issues.length} problem{issues.length === 1 ? '' : 's'}, listed above
                  </span>
                ) : draft.dirty ? (
                  'Unsaved changes'
                ) : message?.tone === 'success' ? (
                  message.text
                ) : (
                  'No unsaved changes'
                )}
              </span>
            </div>
          )}
          {message?.tone === 'error' && <Alert tone="error">{message.text}</Alert>}
        </div>
      </Card>
    </>
  );
}
