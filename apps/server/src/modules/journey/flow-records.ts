import {
  chatRuleFor,
  sectionMinSeconds,
  type AnswerValue,
  type ChatStep,
  type FlowDefinition,
  type ReadingStep,
} from '@studychat/contracts';
import { parsed } from '../../db/dialect.js';
import { toBool } from '../../db/values.js';
import { chatArmDone, NO_CHAT, toChatFacts, type ChatFacts } from './chat-facts.js';
import type { FlowRecords, SectionRecord } from './flow-position.js';
import type { JourneyFactRows } from './journey-facts.repository.js';

// A participant's records as a flow reads them (docs/decisions/0075): the answers of their questions pages, the
// pages and AI texts they have done, their condition, chat and completion, from the one facts read.

/** A reading step's section as finished: when it opened and was finished (server), the seconds the page saw. */
export interface ReadSection {
  openedAt: string;
  finishedAt: string;
  visibleSeconds: number;
  hiddenSeconds: number;
}

/**
 * What a step record holds: a questions page's answers; an AI text's generation and confirmed text; a reading
 * step's sections finished, in order (done with the last).
 */
export interface StepRecordData {
  sections?: ReadSection[];
  answers?: Record<string, AnswerValue>;
  generated?: string;
  text?: string;
  model?: string;
  inputTokens?: number | null;
  outputTokens?: number | null;
  costUsd?: number | null;
}

export interface FlowStepRecord {
  stepId: string;
  type: string;
  data: StepRecordData;
  doneAt: number | null;
  createdAt: number;
}

/** The flow's reading step, if it has one. */
export function readingStepOf(flow: FlowDefinition): ReadingStep | undefined {
  return flow.steps.find((s): s is ReadingStep => s.type === 'reading');
}

/**
 * The reading step's sections for the condition, as the server saw them: each finished one from its record; the
 * first one not finished opened when the one before was finished, or (the first) when the step was reached.
 */
function readSections(
  flow: FlowDefinition,
  condition: string | null,
  steps: readonly FlowStepRecord[],
  reachedAt: number,
): SectionRecord[] {
  const step = readingStepOf(flow);
  const sections = step && condition ? (step.sections[condition] ?? []) : [];
  const read = (step && steps.find((r) => r.stepId === step.id)?.data.sections) ?? [];
  return sections.map((section, i) => {
    const done = read[i];
    const before = read[i - 1];
    const openedAt = done
      ? millis(done.openedAt)
      : i === read.length
        ? before
          ? millis(before.finishedAt)
          : reachedAt
        : null;
    return { minSeconds: sectionMinSeconds(section), openedAt, finishedAt: done ? millis(done.finishedAt) : null };
  });
}

/** The flow's chat step, if it has one. */
export function chatStepOf(flow: FlowDefinition): ChatStep | undefined {
  return flow.steps.find((s): s is ChatStep => s.type === 'chat');
}

function millis(value: unknown): number {
  return value instanceof Date ? value.getTime() : Date.parse(String(value));
}

export interface FlowFacts {
  records: FlowRecords;
  steps: FlowStepRecord[];
  chat: ChatFacts;
  /** When the participant joined, consented or was assigned, and each step record's time: when they reached the step they are at. */
  lastDoneAt: number;
}

/** The facts read (journey-facts.repository.ts) as the flow's records. */
export function toFlowFacts(flow: FlowDefinition, rows: JourneyFactRows, now: number): FlowFacts {
  // The row as stored: a flow's pathways and strata are its own, not the built-in study's (the API's Assignment).
  const assignment = rows.assignment;
  const condition = assignment.assigned_condition;
  const arm = condition ? chatStepOf(flow)?.arms[condition] : undefined;
  const chat = rows.thread
    ? toChatFacts(rows.thread, rows.messages, arm?.completion ?? chatRuleFor(undefined, condition))
    : NO_CHAT;
  const steps: FlowStepRecord[] = rows.steps.map((r) => ({
    stepId: r.step_id,
    type: r.step_type,
    data: parsed<StepRecordData>(r.data),
    doneAt: r.done_at === null ? null : millis(r.done_at),
    createdAt: millis(r.created_at),
  }));
  const answers: Record<string, AnswerValue> = {};
  const answered = new Set<string>();
  const stepsDone = new Set<string>();
  for (const record of steps) {
    if (record.doneAt === null) continue;
    if (record.type === 'questions') {
      answered.add(record.stepId);
      Object.assign(answers, record.data.answers ?? {});
    } else {
      stepsDone.add(record.stepId);
      if (record.type === 'ai_text' && record.data.text !== undefined) answers[record.stepId] = record.data.text;
    }
  }
  const times = [
    millis(assignment.created_at),
    assignment.consent_timestamp ? millis(assignment.consent_timestamp) : 0,
    assignment.condition_assigned_at ? millis(assignment.condition_assigned_at) : 0,
    ...steps.map((s) => s.doneAt ?? 0),
  ];
  const lastDoneAt = Math.max(...times);
  return {
    records: {
      consented: toBool(assignment.consent_given) || assignment.consent_timestamp !== null,
      answers,
      answered,
      stepsDone,
      condition,
      sections: readSections(flow, condition, steps, lastDoneAt),
      chatStarted: chat.threadId !== null,
      chatComplete: chatArmDone(chat, arm?.completion ?? {}, now),
      completion: assignment.completed_at === null ? null : assignment.completion_pathway,
    },
    steps,
    chat,
    lastDoneAt,
  };
}
