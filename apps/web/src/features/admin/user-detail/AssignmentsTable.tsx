import type { Assignment } from '@studychat/contracts/web';
import { Link } from '../../../lib/router';
import { TH_CLASS } from '../../../components/SortableHeader';
import { TABLE_CLASS, TD_CLASS, TableScroll } from '../../../components/TableScroll';
import { formatDateTime, shortId } from '../format';

function YesWithTime({ at, yes }: { at: string | null; yes: boolean }) {
  if (!yes) return <>No</>;
  return <>Yes{at && <span className="text-slate-600"> ({formatDateTime(at)})</span>}</>;
}

/** The user's experiment assignments. */
export function AssignmentsTable({ assignments }: { assignments: readonly Assignment[] }) {
  if (assignments.length === 0) return <p className="text-slate-600">No assignments found.</p>;
  return (
    <TableScroll label="Participant assignments">
      <table className={TABLE_CLASS}>
        <thead>
          <tr>
            {['Exp ID', 'Condition', 'Consent Given', 'Assigned At', 'Completed', 'Pathway'].map((label) => (
              <th key={label} scope="col" className={TH_CLASS}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {assignments.map((a) => {
            // Completed means the intervention was completed (pathway complete); the exits show as their pathway.
            const completedAt = a.intervention_completed_timestamp;
            return (
              <tr key={a.id}>
                <td className={TD_CLASS}>
                  <Link
                    to={`/admin/experiments/${a.experiment_id}`}
                    title={a.experiment_id}
                    className="font-mono text-brand-700 hover:underline"
                  >
                    {shortId(a.experiment_id)}...
                  </Link>
                </td>
                <td className={TD_CLASS}>{a.assigned_condition ?? 'Not Assigned'}</td>
                <td className={TD_CLASS}>
                  <YesWithTime yes={a.consent_given} at={a.consent_timestamp} />
                </td>
                <td className={TD_CLASS}>{formatDateTime(a.created_at)}</td>
                <td className={TD_CLASS}>
                  <YesWithTime yes={completedAt !== null} at={completedAt} />
                </td>
                <td className={TD_CLASS}>{a.completion_pathway ?? '-'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
