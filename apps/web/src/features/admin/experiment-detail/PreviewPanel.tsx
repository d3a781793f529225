import type { Condition, ConditionDeclaration, PreviewLink } from '@studychat/contracts/web';
import { useState } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { CopyButton } from '../../../components/CopyButton';
import { errorText, formatDateTime } from '../format';
import { useCreatePreview } from './use-experiment-detail';

/** The full address of a preview link, on this site. */
export function previewUrl(link: Pick<PreviewLink, 'path'>, origin = window.location.origin): string {
  return `${origin}${link.path}`;
}

/**
 * 'Preview as Participant' (admins, docs/decisions/0045): a test participant in the chosen condition and a
 * one-time link to open in a private window (this browser's tabs share the admin session). Test runs are
 * marked and left out of the monitor, the summary and the chart.
 */
export function PreviewPanel({
  experimentId,
  conditions,
}: {
  experimentId: string;
  /** The conditions of the experiment's study version (docs/decisions/0061); undefined while they load. */
  conditions: readonly ConditionDeclaration[] | undefined;
}) {
  const create = useCreatePreview(experimentId);
  const [link, setLink] = useState<PreviewLink | null>(null);
  const [error, setError] = useState<string | null>(null);

  function start(condition: Condition) {
    setError(null);
    create.mutate(condition, {
      onSuccess: (created) => setLink(created),
      onError: (e) => setError(errorText(e)),
    });
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Preview as Participant</h2>
      <p className="mt-1 text-sm text-slate-600">
        Creates a test participant in the condition you choose (not drawn by the randomisation) and a link that signs in
        as them once, for 30 minutes. Test runs are marked &quot;test&quot; and never counted in the monitor, the
        summary or the chart.
      </p>
      {conditions ? (
        <ul className="mt-3 flex flex-wrap gap-3">
          {conditions.map((condition) => (
            <li key={condition.id} className="flex flex-col gap-1">
              <Button variant="secondary" disabled={create.isPending} onClick={() => start(condition.id)}>
                Preview {condition.id}
              </Button>
              <span className="text-xs text-slate-600">{condition.label}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-sm text-slate-600">Loading the study&apos;s conditions...</p>
      )}
      {error && <Alert className="mt-3">{error}</Alert>}
      {link && (
        <div className="mt-4 space-y-2" data-testid="preview-link">
          <Alert tone="warning">
            Open this link in a private window (or another browser profile): this browser&apos;s tabs share your admin
            session, so the preview page will not sign in here.
          </Alert>
          <p className="text-sm text-slate-700">
            Test participant <span className="font-mono">{link.prolific_pid}</span> in condition{' '}
            <strong>{link.condition}</strong>; the link works once, until {formatDateTime(link.expires_at, '')}.
          </p>
          <div className="flex items-center gap-2">
            <input
              readOnly
              aria-label="Preview link"
              value={previewUrl(link)}
              className="w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={previewUrl(link)} label="Copy preview link" />
          </div>
        </div>
      )}
    </Card>
  );
}
