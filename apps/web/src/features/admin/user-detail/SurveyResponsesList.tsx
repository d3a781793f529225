import type { SurveyResponse } from '@studychat/contracts/web';
import { Link } from '../../../lib/router';
import { formatDateTime, shortId } from '../format';

/** The user's survey responses, each with its answers as JSON behind a disclosure. */
export function SurveyResponsesList({ responses }: { responses: readonly SurveyResponse[] }) {
  if (responses.length === 0) return <p className="text-slate-600">No survey responses found.</p>;
  return (
    <ul className="divide-y divide-slate-100">
      {responses.map((r) => (
        <li key={r.id} className="py-3 first:pt-0 last:pb-0">
          <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1 text-sm">
            <span>
              <span className="text-slate-600">Experiment: </span>
              <Link
                to={`/admin/experiments/${r.experiment_id}`}
                title={r.experiment_id}
                className="font-mono text-brand-700 hover:underline"
              >
                {shortId(r.experiment_id)}...
              </Link>
            </span>
            <span>
              <span className="text-slate-600">Type: </span>
              <span className="font-semibold">{r.survey_type}</span>
            </span>
            <span>
              <span className="text-slate-600">Submitted: </span>
              {formatDateTime(r.created_at)}
            </span>
          </div>
          <details className="mt-2">
            <summary className="cursor-pointer text-sm font-medium text-brand-700">View Response Data</summary>
            <pre className="mt-2 overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs">
              {JSON.stringify(r.responses, null, 2)}
            </pre>
          </details>
        </li>
      ))}
    </ul>
  );
}
