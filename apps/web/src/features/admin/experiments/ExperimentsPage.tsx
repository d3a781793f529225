import { useState } from 'react';
import { canEdit } from '../can-edit';
import { Link } from '../../../lib/router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { TH_CLASS } from '../../../components/SortableHeader';
import { Spinner } from '../../../components/Spinner';
import { TABLE_CLASS, TD_CLASS, TD_DATE_CLASS, TD_WRAP_CLASS, TableScroll } from '../../../components/TableScroll';
import { BackLink } from '../BackLink';
import { errorText, formatDateTime } from '../format';
import { CreateExperimentModal } from './CreateExperimentModal';
import { useExperiments } from './use-experiments';
import { ExperimentStateBadge } from '../ExperimentStateBadge';

/** `/admin/experiments`: the experiments (archived ones behind 'Show archived'), and 'Create New Experiment'. */
export function ExperimentsPage() {
  const [showArchived, setShowArchived] = useState(false);
  const experiments = useExperiments(showArchived);
  const [creating, setCreating] = useState(false);

  return (
    <div className="space-y-4">
      <BackLink to="/admin">Back to Dashboard</BackLink>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Experiments</h1>
        {canEdit() && <Button onClick={() => setCreating(true)}>Create New Experiment</Button>}
      </div>
      <label className="flex min-h-11 w-fit items-center gap-2 text-slate-800">
        <input
          type="checkbox"
          className="size-5 accent-brand-600"
          checked={showArchived}
          onChange={(e) => setShowArchived(e.target.checked)}
        />
        Show archived
      </label>
      <Card className="overflow-hidden p-0!">
        {experiments.isPending ? (
          <div className="p-5 sm:p-6">
            <Spinner label="Loading experiments..." />
          </div>
        ) : experiments.isError ? (
          <div className="p-5 sm:p-6">
            <Alert>Failed to load experiments: {errorText(experiments.error)}</Alert>
          </div>
        ) : experiments.data.length === 0 ? (
          <p className="p-5 text-slate-600 sm:p-6">No experiments found. Create one to get started.</p>
        ) : (
          <TableScroll maxHeight="70vh" label="Experiments" bleed={false}>
            <table className={TABLE_CLASS}>
              <thead>
                <tr>
                  {['Name', 'Status', 'Description', 'Created At', ''].map((label, i) => (
                    <th key={i} scope="col" className={TH_CLASS}>
                      {label || <span className="sr-only">Actions</span>}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {experiments.data.map((experiment) => (
                  <tr key={experiment.id} className="hover:bg-slate-50">
                    <td className={`${TD_WRAP_CLASS} font-medium text-slate-900`}>{experiment.name}</td>
                    <td className={TD_CLASS}>
                      <ExperimentStateBadge state={experiment.state} />
                    </td>
                    <td className={`${TD_WRAP_CLASS} max-w-md text-slate-700`}>
                      <span className="line-clamp-2">{experiment.description || '-'}</span>
                    </td>
                    <td className={TD_DATE_CLASS}>{formatDateTime(experiment.created_at)}</td>
                    <td className={`${TD_CLASS} text-right`}>
                      <Link
                        to={`/admin/experiments/${experiment.id}`}
                        aria-label={`View Details: ${experiment.name}`}
                        className="font-medium text-brand-700 hover:underline"
                      >
                        View Details
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Card>
      <CreateExperimentModal open={creating} onOpenChange={setCreating} />
    </div>
  );
}
