import type { AnswerValue, FlowDefinition, FlowQuestion } from '@studychat/contracts';
import { toBool, toIsoOrNull } from '../../db/values.js';
import { flowStateOf } from '../journey/journey.service.js';
import type { CsvColumn } from './csv.js';
import type { FlowParticipantRows } from './flow-package.repository.js';

// The columns of a flow's data package (issue 30), from the flow itself: one column per question key typed by its
// question (a multiple choice as one TRUE/FALSE column per option), each AI text as generated and as confirmed,
// and each participant's last step reached; one row per step a participant did, with when they reached it.

const list = (values: readonly string[]) => values.join('; ');

interface AiTextRecord {
  generated: string | null;
  text: string | null;
  corrected: boolean | null;
  model: string | null;
  costUsd: number | null;
}

export interface FlowParticipantRecord {
  userId: string;
  prolificPid: string | null;
  isTest: boolean;
  studyVersionId: string | null;
  joinedAt: string | null;
  consentedAt: string | null;
  condition: string | null;
  stratum: string | null;
  assignedAt: string | null;
  lastStep: string;
  pathway: string | null;
  completedAt: string | null;
  flagged: string[];
  chatRounds: number | null;
  chatComplete: boolean | null;
  answers: Readonly<Record<string, AnswerValue | undefined>>;
  /** The questions pages the participant answered. */
  answeredPages: ReadonlySet<string>;
  aiTexts: Record<string, AiTextRecord>;
}

export interface FlowStepRecordRow {
  userId: string;
  prolificPid: string | null;
  stepId: string;
  stepType: string;
  reachedAt: string | null;
  doneAt: string | null;
  seconds: number | null;
}

const iso = (value: Date | string | null | undefined) => toIsoOrNull(value ?? null);

/** One participant's row and step rows, from their records read by the package. */
export function flowRecordsOf(
  flow: FlowDefinition,
  rows: FlowParticipantRows,
  now: number,
): { participant: FlowParticipantRecord; steps: FlowStepRecordRow[] } {
  const { assignment } = rows;
  const state = flowStateOf(flow, { ...rows, surveys: [], views: [] }, now);
  const { records, steps, chat } = state.facts;
  const aiTexts: Record<string, AiTextRecord> = {};
  for (const step of steps.filter((s) => s.type === 'ai_text')) {
    aiTexts[step.stepId] = {
      generated: step.data.generated ?? null,
      text: step.doneAt === null ? null : (step.data.text ?? null),
      corrected: step.doneAt === null ? null : step.data.text !== step.data.generated,
      model: step.data.model ?? null,
      costUsd: step.data.costUsd ?? null,
    };
  }
  const participant: FlowParticipantRecord = {
    userId: assignment.user_id,
    prolificPid: assignment.prolific_pid,
    isTest: toBool(assignment.is_test),
    studyVersionId: assignment.study_version_id,
    joinedAt: iso(assignment.created_at),
    consentedAt: iso(assignment.consent_timestamp),
    condition: assignment.assigned_condition,
    stratum: assignment.stratum,
    assignedAt: iso(assignment.condition_assigned_at),
    lastStep: state.position.step?.id ?? 'completed',
    pathway: records.completion,
    completedAt: iso(assignment.completed_at),
    flagged: state.position.flagged,
    chatRounds: chat.threadId === null ? null : chat.progress.rounds,
    chatComplete: chat.threadId === null ? null : records.chatComplete,
    answers: { ...records.answers },
    answeredPages: records.answered,
    aiTexts,
  };
  // A step was reached when the one before it was done (or when the participant joined, consented or was
  // assigned, whichever came last before it).
  const milestones = [assignment.created_at, assignment.consent_timestamp, assignment.condition_assigned_at]
    .map((t) => (t ? Date.parse(String(t instanceof Date ? t.toISOString() : t)) : NaN))
    .filter(Number.isFinite);
  const order = (id: string) => flow.steps.findIndex((s) => s.id === id);
  const done = steps
    .filter((s) => s.doneAt !== null)
    .sort((a, b) => (a.doneAt ?? 0) - (b.doneAt ?? 0) || order(a.stepId) - order(b.stepId));
  const stepRows = done.map((step) => {
    const doneAt = step.doneAt ?? 0;
    const before = [...milestones, ...done.map((s) => s.doneAt ?? 0)].filter((t) => t < doneAt);
    const reached = before.length > 0 ? Math.max(...before) : null;
    return {
      userId: assignment.user_id,
      prolificPid: assignment.prolific_pid,
      stepId: step.stepId,
      stepType: step.type,
      reachedAt: reached === null ? null : new Date(reached).toISOString(),
      doneAt: new Date(doneAt).toISOString(),
      seconds: reached === null ? null : (doneAt - reached) / 1000,
    };
  });
  return { participant, steps: stepRows };
}

function questionColumns(stepId: string, q: FlowQuestion): CsvColumn<FlowParticipantRecord>[] {
  const answer = (r: FlowParticipantRecord) => r.answers[q.key];
  const meaning = `Answer to "${q.text}"`;
  switch (q.type) {
    case 'single': {
      const values = q.options.map((o) => o.value);
      return [
        {
          name: q.key,
          type: 'text',
          meaning,
          allowed: list(q.options.map((o) => `${o.value} (${o.label})`)),
          enum: values,
          value: (r) => (typeof answer(r) === 'string' ? (answer(r) as string) : null),
        },
      ];
    }
    case 'multiple':
      return q.options.map((o) => ({
        name: `${q.key}_${o.value}`,
        type: 'boolean' as const,
        meaning: `${meaning}: chose "${o.label}"`,
        allowed: 'TRUE, FALSE; empty when the page was not answered',
        value: (r: FlowParticipantRecord) => {
          if (!r.answeredPages.has(stepId)) return null;
          const chosen = answer(r);
          return Array.isArray(chosen) && chosen.includes(o.value);
        },
      }));
    case 'likert':
      return [number(q.key, 'integer', meaning, 1, q.points, answer)];
    case 'slider':
      return [number(q.key, 'number', meaning, q.min, q.max, answer)];
    case 'number':
      return [number(q.key, q.integer ? 'integer' : 'number', meaning, q.min, q.max, answer)];
    case 'text':
      return [
        {
          name: q.key,
          type: 'text',
          meaning,
          value: (r) => (typeof answer(r) === 'string' ? (answer(r) as string) : null),
        },
      ];
  }
}

function number(
  name: string,
  type: 'integer' | 'number',
  meaning: string,
  minimum: number | undefined,
  maximum: number | undefined,
  answer: (r: FlowParticipantRecord) => AnswerValue | undefined,
): CsvColumn<FlowParticipantRecord> {
  const range = minimum !== undefined && maximum !== undefined ? `${minimum} to ${maximum}` : '';
  return {
    name,
    type,
    meaning,
    allowed: range,
    ...(minimum !== undefined ? { minimum } : {}),
    ...(maximum !== undefined ? { maximum } : {}),
    value: (r) => {
      const value = answer(r);
      return typeof value === 'number' ? value : null;
    },
  };
}

/** participants.csv of a flow: the participant, their path through the flow, then every answer. */
export function flowParticipantColumns(flow: FlowDefinition): CsvColumn<FlowParticipantRecord>[] {
  const conditions = flow.conditions.map((c) => c.id);
  const pathways = flow.pathways.map((p) => p.key);
  const stepIds = [...flow.steps.map((s) => s.id), 'completed'];
  const base: CsvColumn<FlowParticipantRecord>[] = [
    { name: 'user_id', type: 'text', meaning: 'Study login (user) id; joins the other files', value: (r) => r.userId },
    { name: 'prolific_pid', type: 'text', meaning: 'Prolific participant id', value: (r) => r.prolificPid },
    {
      name: 'is_test',
      type: 'boolean',
      meaning: 'A preview (test run) by the research team',
      allowed: 'TRUE, FALSE',
      value: (r) => r.isTest,
    },
    {
      name: 'study_version_id',
      type: 'text',
      meaning: 'Study version the participant ran',
      value: (r) => r.studyVersionId,
    },
    { name: 'joined_at', type: 'timestamp', meaning: 'When the participant joined', value: (r) => r.joinedAt },
    { name: 'consented_at', type: 'timestamp', meaning: 'When the participant consented', value: (r) => r.consentedAt },
    {
      name: 'condition',
      type: 'text',
      meaning: 'Condition assigned at the randomise step',
      allowed: list(flow.conditions.map((c) => `${c.id} (${c.label})`)),
      enum: conditions,
      value: (r) => r.condition,
    },
    {
      name: 'stratum',
      type: 'text',
      meaning: 'Randomisation stratum (the bin of the stratifying answer)',
      value: (r) => r.stratum,
    },
    { name: 'assigned_at', type: 'timestamp', meaning: 'When the condition was assigned', value: (r) => r.assignedAt },
    {
      name: 'last_step',
      type: 'text',
      meaning: 'The step the participant was at when the data was exported ("completed" once completion is recorded)',
      allowed: list(stepIds),
      enum: stepIds,
      value: (r) => r.lastStep,
    },
    {
      name: 'pathway',
      type: 'text',
      meaning: 'Pathway the participant completed (empty: not completed)',
      allowed: list(flow.pathways.map((p) => `${p.key} (${p.label})`)),
      enum: pathways,
      value: (r) => r.pathway,
    },
    { name: 'completed_at', type: 'timestamp', meaning: 'When completion was recorded', value: (r) => r.completedAt },
    {
      name: 'flagged_checks',
      type: 'text',
      meaning: 'Attention checks failed that only flag (their question keys, separated by "; ")',
      value: (r) => (r.flagged.length > 0 ? list(r.flagged) : null),
    },
    {
      name: 'chat_rounds',
      type: 'integer',
      meaning: 'Chat rounds answered in full (empty: never started the chat)',
      minimum: 0,
      value: (r) => r.chatRounds,
    },
    {
      name: 'chat_complete',
      type: 'boolean',
      meaning: "The chat step is done by its arm's rule or a limit (empty: never started the chat)",
      allowed: 'TRUE, FALSE',
      value: (r) => r.chatComplete,
    },
  ];
  const answers = flow.steps.flatMap((step): CsvColumn<FlowParticipantRecord>[] => {
    if (step.type === 'questions') return step.questions.flatMap((q) => questionColumns(step.id, q));
    if (step.type !== 'ai_text') return [];
    const ai = (r: FlowParticipantRecord) => r.aiTexts[step.id];
    return [
      {
        name: `${step.id}_generated`,
        type: 'text',
        meaning: `AI text "${step.title}" as the model wrote it`,
        value: (r) => ai(r)?.generated ?? null,
      },
      {
        name: step.id,
        type: 'text',
        meaning: `AI text "${step.title}" as the participant confirmed it`,
        value: (r) => ai(r)?.text ?? null,
      },
      {
        name: `${step.id}_corrected`,
        type: 'boolean',
        meaning: `The participant corrected the AI text "${step.title}"`,
        allowed: 'TRUE, FALSE',
        value: (r) => ai(r)?.corrected ?? null,
      },
      {
        name: `${step.id}_model`,
        type: 'text',
        meaning: 'Model that wrote the AI text',
        value: (r) => ai(r)?.model ?? null,
      },
      {
        name: `${step.id}_cost_usd`,
        type: 'number',
        meaning: 'Cost of the AI text (USD)',
        value: (r) => ai(r)?.costUsd ?? null,
      },
    ];
  });
  return [...base, ...answers];
}

/** steps.csv of a flow: one row per step a participant did. */
export const FLOW_STEP_COLUMNS: readonly CsvColumn<FlowStepRecordRow>[] = [
  { name: 'user_id', type: 'text', meaning: 'Study login (user) id; joins participants.csv', value: (r) => r.userId },
  { name: 'prolific_pid', type: 'text', meaning: 'Prolific participant id', value: (r) => r.prolificPid },
  {
    name: 'step_id',
    type: 'text',
    meaning: "The step's id in the study definition (study.json)",
    value: (r) => r.stepId,
  },
  {
    name: 'step_type',
    type: 'text',
    meaning: 'The step type',
    allowed: 'page, questions, ai_text',
    value: (r) => r.stepType,
  },
  {
    name: 'reached_at',
    type: 'timestamp',
    meaning: 'When the participant reached the step (the step before it done, by the server clock)',
    value: (r) => r.reachedAt,
  },
  { name: 'done_at', type: 'timestamp', meaning: 'When the server recorded the step done', value: (r) => r.doneAt },
  {
    name: 'seconds',
    type: 'number',
    meaning: 'Seconds from reaching the step to its being done',
    minimum: 0,
    value: (r) => r.seconds,
  },
];
