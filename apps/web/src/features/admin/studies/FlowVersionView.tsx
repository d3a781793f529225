import { isFlowDefinition, type FlowDefinition, type StudyIssue, type StudyVersion } from '@studychat/contracts/web';
import { useId, useMemo, useState } from 'react';
import { Card } from '../../../components/Card';
import { TableScroll } from '../../../components/TableScroll';
import { ApiError } from '../../../lib/api';
import { FlowOverviewCard } from './FlowOverviewCard';
import { stepModels } from './flow-models';
import { FlowBuilder } from './builder/FlowBuilder';
import { useUpdateStudyVersion } from './use-studies';

const STEP_TYPES: Record<FlowDefinition['steps'][number]['type'], string> = {
  page: 'Page',
  questions: 'Questions',
  reading: 'Timed reading',
  chat: 'Chat',
  ai_text: 'AI text',
  randomise: 'Randomise',
  screen: 'Screen',
  end: 'End',
};

/**
 * A version written as a flow of steps (issue 30): what each condition walks (the draft as edited), its steps at a
 * glance, the builder (issue 31) and its definition as JSON, one draft in two views, saved whole and checked by the
 * server (every problem with its path).
 */
export function FlowVersionView({
  version,
  flow,
  editable,
}: {
  version: StudyVersion;
  flow: FlowDefinition;
  editable: boolean;
}) {
  const jsonId = useId();
  const update = useUpdateStudyVersion(version.id);
  const [text, setText] = useState(() => JSON.stringify(flow, null, 2));
  const [issues, setIssues] = useState<StudyIssue[]>([]);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  // The overview and the steps table follow the draft while it reads as a flow; the saved version otherwise.
  const draft = useMemo(() => {
    try {
      const parsed: unknown = JSON.parse(text);
      return isFlowDefinition(parsed) ? (parsed as FlowDefinition) : flow;
    } catch {
      return flow;
    }
  }, [text, flow]);

  const save = () => {
    setMessage(null);
    let definition: Record<string, unknown>;
    try {
      definition = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      setMessage({ tone: 'error', text: `The JSON cannot be read: ${(error as Error).message}` });
      return;
    }
    update.mutate(
      { label: version.label, definition },
      {
        onSuccess: () => {
          setIssues([]);
          setMessage({ tone: 'success', text: 'Saved.' });
        },
        onError: (error) => {
          setIssues(error instanceof ApiError ? (error.details.issues ?? []) : []);
          setMessage({ tone: 'error', text: error.message });
        },
      },
    );
  };

  return (
    <div className="space-y-6">
      <FlowOverviewCard flow={draft} />
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Steps</h2>
        <p className="mt-1 text-sm text-slate-600">
          Conditions: {draft.conditions.map((c) => `${c.label} (${c.id})`).join(', ')}. Pathways:{' '}
          {draft.pathways.map((p) => `${p.label} (${p.key})`).join(', ')}.
        </p>
        <TableScroll label="Steps of the study">
          <table className="mt-3 min-w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200">
                <th className="px-3 py-2">#</th>
                <th className="px-3 py-2">Step</th>
                <th className="px-3 py-2">Type</th>
                <th className="px-3 py-2">Shown to</th>
                <th className="px-3 py-2">Model</th>
              </tr>
            </thead>
            <tbody>
              {draft.steps.map((step, i) => (
                <tr key={`${i}-${step.id}`} className="border-b border-slate-100">
                  <td className="px-3 py-2">{i + 1}</td>
                  <td className="px-3 py-2 font-mono">{step.id}</td>
                  <td className="px-3 py-2">{STEP_TYPES[step.type]}</td>
                  <td className="px-3 py-2">{step.conditions ? step.conditions.join(', ') : 'everyone'}</td>
                  <td className="px-3 py-2">{stepModels(step)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </Card>
      {editable && (
        <FlowBuilder
          text={text}
          onText={setText}
          refusedIssues={issues}
          onSave={save}
          saving={update.isPending}
          message={message}
        />
      )}
      <Card>
        <label htmlFor={jsonId} className="text-lg font-semibold text-slate-900">
          Definition (JSON)
        </label>
        <p className="mt-1 text-sm text-slate-600">
          {editable
            ? 'Edit the definition and save: the server checks it and names every problem by its place.'
            : 'This version cannot change; clone it to adapt it.'}
        </p>
        <textarea
          id={jsonId}
          value={text}
          onChange={(e) => setText(e.target.value)}
          readOnly={!editable}
          spellCheck={false}
          rows={24}
          className="mt-3 block w-full rounded-lg border border-slate-300 px-3 py-2 font-mono text-xs text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500 focus:outline-none"
        />
      </Card>
    </div>
  );
}
