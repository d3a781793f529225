import type { ExperimentState } from '@studychat/contracts/web';

/** Each state's label, colours and what it means for joining (docs/decisions/0077). */
export const STATE_INFO: Record<ExperimentState, { label: string; className: string; meaning: string }> = {
  draft: {
    label: 'Draft',
    className: 'bg-slate-100 text-slate-800',
    meaning: 'Being set up: nobody can join yet.',
  },
  open: {
    label: 'Open',
    className: 'bg-green-100 text-green-900',
    meaning: 'Participants can join.',
  },
  paused: {
    label: 'Paused',
    className: 'bg-amber-100 text-amber-900',
    meaning: 'New participants are told the study is paused; those already in can finish.',
  },
  closed: {
    label: 'Closed',
    className: 'bg-red-100 text-red-900',
    meaning: 'New participants are told the study is closed; those already in can finish.',
  },
  archived: {
    label: 'Archived',
    className: 'bg-slate-200 text-slate-800',
    meaning: 'Hidden from the experiments list; its data is kept; nobody can join.',
  },
};

/** The experiment's state as a small badge (the experiments list, the experiment page, the monitor). */
export function ExperimentStateBadge({ state }: { state: ExperimentState }) {
  const info = STATE_INFO[state];
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${info.className}`}>
      <span className="sr-only">State: </span>
      {info.label}
    </span>
  );
}
