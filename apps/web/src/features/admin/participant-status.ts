import type { ParticipantStatusName } from '@studychat/contracts/web';

/** How a participant's status reads in the admin pages (docs/decisions/0030). */
export const STATUS_LABEL: Record<ParticipantStatusName, string> = {
  in_progress: 'In progress',
  screened_out: 'Screened out',
  completed: 'Completed',
  stale: 'Stale',
};
