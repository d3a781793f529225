import type { Experiment } from '@studychat/contracts/web';
import { useCanEditExperiment } from '../experiment-role';
import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { formatDateTime } from '../format';
import { EditExperimentModal } from './EditExperimentModal';
import { usePathways } from './use-pathways';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** The experiment's id, description, completion codes (named as its study names the pathways) and dates, with Edit. */
export function ExperimentDetailsCard({
  experiment,
  showCodes = true,
}: {
  experiment: Experiment;
  /** The built-in shape's three codes; a flow's pathways have a card of their own (issue 30). */
  showCodes?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const pathways = usePathways(experiment);
  const editable = useCanEditExperiment(experiment.id);
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 className="text-xl font-semibold break-words text-slate-900">{experiment.name}</h2>
        {editable && (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit
          </Button>
        )}
      </div>
      <p className="mt-2 whitespace-pre-wrap text-slate-700">{experiment.description || 'No description provided.'}</p>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Item label="ID">
          <span className="font-mono text-sm break-all">{experiment.id}</span>
        </Item>
        <Item label="Created At">{formatDateTime(experiment.created_at)}</Item>
        <Item label="Last Updated">{formatDateTime(experiment.updated_at)}</Item>
        {(showCodes ? pathways : []).map((p) => (
          <Item key={p.codeKey} label={`Code: ${p.codeKey} (${p.label})`}>
            <span className="font-mono" title={p.description}>
              {experiment.completion_codes[p.codeKey] || '-'}
            </span>
          </Item>
        ))}
      </dl>
      <EditExperimentModal experiment={experiment} open={editing} onOpenChange={setEditing} showCodes={showCodes} />
    </Card>
  );
}
