import { JOURNEY_EVENT_TYPES } from '@studychat/contracts';
import type { CsvColumn } from './csv.js';

// The columns of the two files only the data package has: page_times.csv and events.csv.

/** The pages timed by the server from journey events: a step starts at one event and ends at another. */
export const TIMED_STEPS = ['consent', 'entry', 'baseline', 'pre_survey', 'chat', 'post_survey'] as const;

/** One page (a journey step or a static section) of one participant, with the server's times. */
export interface PageTimeRecord {
  experimentId: string;
  userId: string;
  prolificPid: string | null;
  page: string;
  sectionIndex: number | null;
  sectionId: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  serverSeconds: number | null;
  visibleSeconds: number | null;
  hiddenSeconds: number | null;
  minSeconds: number | null;
  minMet: boolean | null;
}

export const PAGE_TIME_COLUMNS: readonly CsvColumn<PageTimeRecord>[] = [
  { name: 'experiment_id', type: 'text', meaning: 'Experiment id', value: (r) => r.experimentId },
  { name: 'user_id', type: 'text', meaning: 'Study login (user) id; joins participants.csv', value: (r) => r.userId },
  { name: 'prolific_pid', type: 'text', meaning: 'Prolific participant id', value: (r) => r.prolificPid },
  {
    name: 'page',
    type: 'text',
    meaning:
      "Which page: a journey step (its start and finish are the server's journey events) or 'section' (a static section, opened and finished on the server)",
    allowed: [...TIMED_STEPS, 'section'].join('; '),
    enum: [...TIMED_STEPS, 'section'],
    value: (r) => r.page,
  },
  {
    name: 'section_index',
    type: 'integer',
    meaning: 'For a section: its position from 1 (section_N in participants.csv); empty for a step',
    allowed: '>= 1',
    minimum: 1,
    value: (r) => (r.sectionIndex === null ? null : r.sectionIndex + 1),
  },
  {
    name: 'section_id',
    type: 'text',
    meaning: 'For a section: its id in the study content',
    value: (r) => r.sectionId,
  },
  {
    name: 'started_at',
    type: 'timestamp',
    meaning: "When the page started by the server's clock (a section: opened; a step: the previous step's event)",
    value: (r) => r.startedAt,
  },
  {
    name: 'finished_at',
    type: 'timestamp',
    meaning: 'When the server accepted the page as finished; empty if it was not finished at export time',
    value: (r) => r.finishedAt,
  },
  {
    name: 'server_seconds',
    type: 'number',
    meaning: 'finished_at minus started_at in seconds; empty if not finished',
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.serverSeconds,
  },
  {
    name: 'visible_seconds',
    type: 'number',
    meaning: 'For a section: seconds the page was visible, as the browser reported at the finish; empty otherwise',
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.visibleSeconds,
  },
  {
    name: 'hidden_seconds',
    type: 'number',
    meaning: 'For a section: seconds the page was hidden (another tab or window), as the browser reported',
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.hiddenSeconds,
  },
  {
    name: 'min_seconds',
    type: 'integer',
    meaning: "For a section: the study's minimum seconds for it in the participant's condition",
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.minSeconds,
  },
  {
    name: 'min_met',
    type: 'boolean',
    meaning: 'For a finished section: whether server_seconds reached min_seconds',
    allowed: 'TRUE; FALSE',
    value: (r) => r.minMet,
  },
];

/** One journey event, as the server logged it. */
export interface EventRecord {
  seq: number;
  experimentId: string;
  userId: string;
  prolificPid: string | null;
  type: string;
  step: string;
  data: string | null;
  createdAt: string;
}

export const EVENT_COLUMNS: readonly CsvColumn<EventRecord>[] = [
  {
    name: 'seq',
    type: 'integer',
    meaning: 'Position in the event log (increasing; gaps are other experiments)',
    value: (r) => r.seq,
  },
  { name: 'experiment_id', type: 'text', meaning: 'Experiment id', value: (r) => r.experimentId },
  { name: 'user_id', type: 'text', meaning: 'Study login (user) id; joins participants.csv', value: (r) => r.userId },
  { name: 'prolific_pid', type: 'text', meaning: 'Prolific participant id', value: (r) => r.prolificPid },
  {
    name: 'type',
    type: 'text',
    meaning:
      "What happened: a step accepted (joined ... completed), 'section_too_early' (a finish before the minimum), 'out_of_order' (a write refused), 'answer_change_refused' (a repeat survey submission with different answers: data holds the first and the attempted values; the first stays the answer)",
    allowed: [...JOURNEY_EVENT_TYPES].join('; '),
    enum: [...JOURNEY_EVENT_TYPES],
    value: (r) => r.type,
  },
  { name: 'step', type: 'text', meaning: 'The journey step the participant was at', value: (r) => r.step },
  {
    name: 'data',
    type: 'json',
    meaning: 'Details as JSON text (for example the section index, or the refused value); empty if none',
    value: (r) => r.data,
  },
  { name: 'created_at', type: 'timestamp', meaning: 'When the server logged the event', value: (r) => r.createdAt },
];
