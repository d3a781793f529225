import { chatRuleFor, type AnswerValue, type FlowDefinition, type ChatStep } from '@studychat/contracts';
import { parsed } from '../../db/dialect.js';
import { toBool } from '../../db/values.js';
import { chatArmDone, NO_CHAT, toChatFacts, type ChatFacts } from './chat-facts.js';
import type { FlowRecords } from './flow-position.js';
import type { JourneyFactRows } from './journey-facts.repository.js';

// A participant's records as a flow reads them (docs/decisions/0075): the answers of their questions pages, the
// pages and AI texts they have done, their condition, chat and completion, from the one facts read.

/** What a step record holds: a questions page's answers; an AI text's generation and confirmed text. */
export interface StepRecordData {
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
  return {
    records: {
      consented: toBool(assignment.consent_given) || assignment.consent_timestamp !== null,
      answers,
      answered,
      stepsDone,
      condition,
      sections: [],
      chatStarted: chat.threadId !== null,
      chatComplete: chatArmDone(chat, arm?.completion ?? {}, now),
      completion: assignment.completed_at === null ? null : assignment.completion_pathway,
    },
    steps,
    chat,
    lastDoneAt: Math.max(...times),
  };
}
