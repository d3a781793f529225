import type { StudyIssue } from '@studychat/contracts/web';

/** The server's problems with one field, under it (the field's aria-describedby points here). */
export function FieldIssues({ id, issues }: { id: string; issues: readonly StudyIssue[] }) {
  if (issues.length === 0) return null;
  return (
    <ul id={id} className="mt-1 text-sm text-red-700">
      {issues.map((issue, i) => (
        <li key={i}>{issue.message}</li>
      ))}
    </ul>
  );
}
