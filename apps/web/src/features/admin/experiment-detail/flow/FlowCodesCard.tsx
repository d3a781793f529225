import { useId, useState, type FormEvent } from 'react';
import { Alert } from '../../../../components/Alert';
import { Button } from '../../../../components/Button';
import { Card } from '../../../../components/Card';
import { Spinner } from '../../../../components/Spinner';
import { useFlowCodes, useUpdateFlowCodes } from './use-flow-admin';

/** The completion code of each of the flow's pathways, in the study's words; admins set them. */
export function FlowCodesCard({ experimentId, editable }: { experimentId: string; editable: boolean }) {
  const codes = useFlowCodes(experimentId);
  const update = useUpdateFlowCodes(experimentId);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changed = Object.fromEntries(Object.entries(draft).filter(([, code]) => code.trim() !== ''));
    update.mutate(changed, { onSuccess: () => setDraft({}) });
  };
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Completion codes</h2>
      <p className="mt-1 text-sm text-slate-600">
        One code per way a participant can leave the study; the participant sees it on the last page.
      </p>
      {codes.isPending && <Spinner />}
      {codes.error && <Alert className="mt-3">{codes.error.message}</Alert>}
      {codes.data && (
        <form onSubmit={submit} className="mt-4 space-y-4">
          {codes.data.pathways.map((p) => (
            <div key={p.key}>
              <label htmlFor={`${id}-${p.key}`} className="block font-medium text-slate-900">
                {p.label} <span className="font-mono text-sm text-slate-500">({p.key})</span>
              </label>
              {p.description && <p className="text-sm text-slate-600">{p.description}</p>}
              <input
                id={`${id}-${p.key}`}
                value={draft[p.key] ?? p.code ?? ''}
                placeholder="Not set"
                readOnly={!editable}
                onChange={(e) => setDraft((d) => ({ ...d, [p.key]: e.target.value }))}
                className="mt-1 block w-full max-w-sm rounded-lg border border-slate-300 px-3 py-2 font-mono text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500 focus:outline-none"
              />
            </div>
          ))}
          {update.error && <Alert>{update.error.message}</Alert>}
          {update.isSuccess && Object.keys(draft).length === 0 && <Alert tone="success">Codes saved.</Alert>}
          {editable && (
            <Button type="submit" disabled={update.isPending || Object.keys(draft).length === 0}>
              {update.isPending ? 'Saving…' : 'Save codes'}
            </Button>
          )}
        </form>
      )}
    </Card>
  );
}
