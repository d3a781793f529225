import type { ProlificChecklist, ProlificSyncReply } from '@studychat/contracts/web';

/** The checklist before publishing (computed by the server): each item's state and, when it fails, how to fix it. */
export function ProlificChecklistList({ checklist }: { checklist: ProlificChecklist }) {
  return (
    <ul className="mt-3 space-y-2" aria-label="Checklist before publishing" data-testid="prolific-checklist">
      {checklist.items.map((item) => (
        <li key={item.key} className="flex gap-2" data-testid={`check-${item.key}`}>
          <span
            aria-hidden="true"
            className={`mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-bold text-white ${item.ok ? 'bg-green-700' : 'bg-red-700'}`}
          >
            {item.ok ? '✓' : '✗'}
          </span>
          <div className="min-w-0">
            <p className="font-medium text-slate-900">
              {item.label}
              <span className="sr-only">{item.ok ? ': done' : ': not done'}</span>
            </p>
            <p className="text-sm break-words text-slate-700">{item.detail}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

const STATUS_LABELS: Record<keyof ProlificSyncReply['counts'], string> = {
  active: 'Active',
  awaiting_review: 'Awaiting review',
  approved: 'Approved',
  rejected: 'Rejected',
  returned: 'Returned',
  timed_out: 'Timed out',
  other: 'Other',
};

/** What "Refresh from Prolific" read: the submissions per status, and the spare study logins. */
export function ProlificSyncSummary({ sync }: { sync: ProlificSyncReply }) {
  return (
    <div className="mt-3" role="status" data-testid="prolific-sync">
      <p className="text-slate-700">
        Read {sync.read} submission{sync.read === 1 ? '' : 's'} from Prolific: {sync.matched} matched to participants
        {sync.unmatched > 0 ? `, ${sync.unmatched} not matched` : ''}.
      </p>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4">
        {(Object.keys(STATUS_LABELS) as (keyof ProlificSyncReply['counts'])[]).map((status) => (
          <div key={status} className="flex justify-between gap-2 border-b border-slate-100 py-1">
            <dt className="text-sm text-slate-700">{STATUS_LABELS[status]}</dt>
            <dd className="font-semibold text-slate-900">{sync.counts[status]}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-sm text-slate-700" data-testid="prolific-spares">
        Spare logins: {sync.spareLogins.unused + sync.spareLogins.freed} (of which {sync.spareLogins.freed} freed by
        returned or timed-out submissions; those are counted, not handed out again).
      </p>
    </div>
  );
}
