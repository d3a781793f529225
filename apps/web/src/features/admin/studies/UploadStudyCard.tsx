import type { StudyIssue } from '@studychat/contracts/web';
import { useId, useState, type ChangeEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Card } from '../../../components/Card';
import { ApiError } from '../../../lib/api';
import { readStudyFile } from './study-file';
import { useCreateStudyVersion } from './use-studies';

/** A new draft from a study file (a definition downloaded here or shared by a colleague); the server checks it. */
export function UploadStudyCard({ onCreated }: { onCreated: (id: string) => void }) {
  const inputId = useId();
  const create = useCreateStudyVersion();
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<StudyIssue[]>([]);

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setError(null);
    setIssues([]);
    const read = readStudyFile(await file.text());
    // The same file may be chosen again after it was fixed.
    input.value = '';
    if (!read.ok) {
      setError(read.error);
      return;
    }
    create.mutate(
      { label: `${read.title} (from ${file.name})`.slice(0, 200), definition: read.definition },
      {
        onSuccess: (created) => onCreated(created.id),
        onError: (failure) => {
          setError(failure.message);
          setIssues(failure instanceof ApiError ? (failure.details.issues ?? []) : []);
        },
      },
    );
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Create from a study file</h2>
      <p className="mt-1 text-sm text-slate-600">
        A study file is a version’s definition, downloaded from its page (“Download study file”). Choose one to make a
        new draft from it: the study is checked as when it is saved.
      </p>
      <label htmlFor={inputId} className="mt-3 block text-sm font-medium text-slate-800">
        Study file (.json)
      </label>
      <input
        id={inputId}
        type="file"
        accept=".json,application/json"
        disabled={create.isPending}
        onChange={(event) => void upload(event)}
        className="mt-1 block min-h-11 text-sm file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-900"
      />
      {create.isPending && <p className="mt-2 text-sm text-slate-600">Creating the draft…</p>}
      {error && (
        <Alert tone="error" className="mt-3">
          <p>{error}</p>
          {issues.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {issues.map((issue) => (
                <li key={`${issue.path}:${issue.message}`}>
                  <span className="font-mono">{issue.path || '(the definition)'}</span>: {issue.message}
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
    </Card>
  );
}
