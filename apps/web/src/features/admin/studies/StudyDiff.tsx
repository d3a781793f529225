import { isFlowDefinition } from '@studychat/contracts/web';
import { Alert } from '../../../components/Alert';
import { Spinner } from '../../../components/Spinner';
import { FlowDiffView } from './FlowDiffView';
import { lineDiff } from './line-diff';
import { useStudyVersion } from './use-studies';

const CONTEXT = 2;

/**
 * Two versions compared: flows step by step (FlowDiffView); otherwise (the built-in shape) the changed lines, with two
 * lines around each, of their definitions as formatted JSON.
 */
export function StudyDiff({ leftId, rightId }: { leftId: string; rightId: string }) {
  const left = useStudyVersion(leftId);
  const right = useStudyVersion(rightId);
  if (left.error || right.error) return <Alert tone="error">{(left.error ?? right.error)?.message}</Alert>;
  if (!left.data || !right.data) return <Spinner />;
  const [before, after] = [left.data.definition as unknown, right.data.definition as unknown];
  if (isFlowDefinition(before) && isFlowDefinition(after)) {
    return <FlowDiffView before={before} after={after} />;
  }
  const diff = lineDiff(JSON.stringify(left.data.definition, null, 2), JSON.stringify(right.data.definition, null, 2));
  if (!diff) return <Alert tone="warning">These versions differ too much to compare line by line.</Alert>;
  const changed = diff.map((line, i) => ({ ...line, i })).filter((l) => l.kind !== 'same');
  if (changed.length === 0) return <p className="mt-3 text-slate-700">The two definitions are the same.</p>;
  const shown = diff.filter((_, i) => changed.some((c) => Math.abs(c.i - i) <= CONTEXT));
  return (
    <div className="mt-3">
      <p className="text-sm text-slate-700">
        {changed.filter((l) => l.kind === 'removed').length} lines removed,{' '}
        {changed.filter((l) => l.kind === 'added').length} lines added.
      </p>
      <pre
        aria-label="Differences"
        className="mt-2 max-h-[32rem] overflow-auto rounded border border-slate-200 bg-slate-50 p-2 text-xs"
      >
        {shown.map((line, i) => (
          <div
            key={i}
            className={
              line.kind === 'added'
                ? 'bg-green-100 text-green-900'
                : line.kind === 'removed'
                  ? 'bg-red-100 text-red-900'
                  : ''
            }
          >
            {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
            {line.text}
          </div>
        ))}
      </pre>
    </div>
  );
}
