import type { Condition, ParticipantStatusName, Pathway } from '@studychat/contracts/web';

/** How a participant's status reads in the admin pages (docs/decisions/0030). */
export const STATUS_LABEL: Record<ParticipantStatusName, string> = {
  in_progress: 'In progress',
  screened_out: 'Screened out',
  completed: 'Completed',
  stale: 'Stale',
};

/**
 * The monitor's categories, the same in its cards, its participant list and its status filter (issue 30: a
 * participant at the pre-survey is "Not yet assigned" everywhere, and a screened-out participant whose code was
 * shown is "Screened out", not "Completed"). Each participant is in exactly one.
 */
export type MonitorCategory = 'not_yet_assigned' | 'in_progress' | 'stale' | 'screened_out' | 'completed';

export const MONITOR_CATEGORIES: readonly MonitorCategory[] = [
  'not_yet_assigned',
  'in_progress',
  'stale',
  'screened_out',
  'completed',
];

export const CATEGORY_LABEL: Record<MonitorCategory, string> = {
  not_yet_assigned: 'Not yet assigned',
  in_progress: 'In progress',
  stale: 'Stale',
  screened_out: 'Screened out',
  completed: 'Completed (full study)',
};

/** The participant's category: as the server's summary counts them (monitor-rules.ts summarise). */
export function categoryOf(row: {
  status: ParticipantStatusName;
  condition: Condition | null;
  pathway: Pathway | null;
}): MonitorCategory {
  switch (row.status) {
    case 'completed':
      return row.pathway === 'complete' ? 'completed' : 'screened_out';
    case 'screened_out':
    case 'stale':
      return row.status;
    case 'in_progress':
      return row.condition === null ? 'not_yet_assigned' : 'in_progress';
  }
}
