import type { StudyIssue } from '@studychat/contracts/web';
import { Alert } from '../../../../components/Alert';

/** The draft's problems (checked as it changes, and on save), each a button that leads to the field it names. */
export function IssueSummary({
  issues,
  onSelect,
}: {
  issues: readonly StudyIssue[];
  onSelect: (path: string) => void;
}) {
  if (issues.length === 0) return null;
  return (
    <Alert tone="error">
      <p className="font-semibold">
        The definition has {issues.length} problem{issues.length === 1 ? '' : 's'}; it cannot be saved until they are
        fixed:
      </p>
      <ul className="mt-1 list-disc pl-5">
        {issues.map((issue, i) => (
          <li key={i}>
            <button
              type="button"
              className="text-left underline decoration-dotted hover:decoration-solid"
              onClick={() => onSelect(issue.path)}
            >
              <code className="break-all">{issue.path || '(the whole definition)'}</code>: {issue.message}
            </button>
          </li>
        ))}
      </ul>
    </Alert>
  );
}
