import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, Timestamp } from './common.js';
import { FreeText, LineText } from './text.js';
import type { ChatRule, ChatTimeRule } from './chat-progress.js';
import type { FlowQuestion, FlowStepType, StudyTexts } from './flow/types.js';
import type { ContentBlock } from './study/types.js';

// A participant's walk through a study written as a flow (issue 30, docs/decisions/0075): one read of where they
// are, one write per step, and the AI text's generation. The built-in shape keeps the spec's routes.

/** A question as the participant sees it: an attention check's expected answer is never sent. */
export type FlowQuestionView = FlowQuestion extends infer Q
  ? Q extends FlowQuestion
    ? Omit<Q, 'check'>
    : never
  : never;

/** The step the participant is at, in the study's words with earlier answers piped in; no prompts, no scripts. */
export type FlowStepView =
  | {
      id: string;
      type: 'page';
      title: string;
      blocks: ContentBlock[];
      button: string;
      consent: boolean;
      /** Whole seconds before the server accepts the button (0: now). */
      remainingSeconds: number;
    }
  | {
      id: string;
      type: 'questions';
      title: string;
      intro: string | null;
      questions: FlowQuestionView[];
      button: string;
    }
  | {
      id: string;
      type: 'ai_text';
      title: string;
      instructions: string;
      allowCorrection: boolean;
      maxChars: number;
      confirmLabel: string;
      /** The model's text once generated (generation is its own call); null before. */
      generated: string | null;
    }
  | { id: string; type: 'randomise'; title: string }
  | {
      id: string;
      type: 'reading';
      title: string;
      /** Before the first section only. */
      intro: string[];
      /** The section to read now (one at a time, in order), with the seconds left of its minimum on the server. */
      section: { index: number; count: number; title: string; blocks: ContentBlock[]; remainingSeconds: number };
    }
  | {
      id: string;
      type: 'chat';
      title: string;
      intro: string;
      /** Rounds and points, and the arm's least and most minutes from the chat's start (either may be absent). */
      completion: ChatRule & ChatTimeRule;
      /**
       * Seconds left, by the server's clock, until the least minutes have passed (null: no least minutes) and until
       * the most minutes end the chat's rule (null: no most minutes); counted from the chat's start, so before it
       * started they are the whole minutes.
       */
      minSecondsLeft: number | null;
      maxSecondsLeft: number | null;
      fallbackGreeting: string;
      threadId: string | null;
    }
  | { id: string; type: 'end'; title: string; blocks: ContentBlock[]; pathway: string; code: string | null };

/** Where the participant is in the flow. */
export interface FlowView {
  experimentId: string;
  studyTitle: string;
  texts: StudyTexts;
  step: FlowStepView;
  /** 1-based position among the steps the participant walks, and how many there are (end steps excluded). */
  position: number;
  total: number;
  condition: string | null;
  /** The pathway recorded at completion (or the one the end step gives), else null. */
  pathway: string | null;
  completed: boolean;
  serverTime: string;
}

export type FlowStepTypeName = FlowStepType;

const FlowViewSchema = z.custom<FlowView>((v) => typeof v === 'object' && v !== null);

/** An answer as sent: a choice's value or a text, a number, or a multiple choice's values. */
const AnswerSchema = z.union([FreeText.max(20_000), z.number().finite(), z.array(LineText.max(50)).max(50)]);

export const FlowParams = z.object({ experimentId: Id });
export const FlowStepParams = z.object({ experimentId: Id, stepId: LineText.regex(/^[a-z][a-z0-9_]{0,49}$/) });

/**
 * The step's write: a page's button (no body), a questions page's answers by key, an AI text's confirmed (or
 * corrected) text, a reading step's section finished, a randomise step's request for a condition, an end step's
 * completion (no body).
 */
export const SubmitFlowStepBody = z
  .object({
    answers: z.record(LineText.max(50), AnswerSchema).optional(),
    text: FreeText.max(20_000).optional(),
    /** A reading step's section finished, with the seconds the page saw it visible and hidden (stored, never used). */
    section: z.number().int().min(0).max(49).optional(),
    visibleSeconds: z.number().min(0).max(86_400).optional(),
    hiddenSeconds: z.number().min(0).max(86_400).optional(),
  })
  .strict();
export type SubmitFlowStepBody = z.infer<typeof SubmitFlowStepBody>;

export const GeneratedTextReply = z.object({ stepId: z.string(), text: z.string(), generatedAt: Timestamp });
export type GeneratedTextReply = z.infer<typeof GeneratedTextReply>;

/** A flow's pathways with the experiment's code for each (null where none is set). */
export const FlowCodesReply = z.object({
  pathways: z.array(
    z.object({ key: z.string(), label: z.string(), description: z.string().nullable(), code: z.string().nullable() }),
  ),
});
export type FlowCodesReply = z.infer<typeof FlowCodesReply>;
const FlowCode = LineText.trim().min(1, 'Completion codes cannot be empty').max(100);
export const UpdateFlowCodesBody = z
  .object({ codes: z.record(LineText.regex(/^[a-z][a-z0-9_]{0,29}$/, 'must be a pathway key'), FlowCode) })
  .strict();
const FlowExperimentParams = z.object({ id: Id });

/** Where a flow's participants are (the flow's monitor): counts by step, pathway and condition, and each one. */
export const FlowProgressReply = z.object({
  total: z.number().int(),
  byStep: z.array(z.object({ stepId: z.string(), type: z.string(), count: z.number().int() })),
  byPathway: z.array(z.object({ key: z.string(), label: z.string(), count: z.number().int() })),
  byCondition: z.array(z.object({ id: z.string(), label: z.string(), count: z.number().int() })),
  participants: z.array(
    z.object({
      userId: z.string(),
      prolificPid: z.string().nullable(),
      condition: z.string().nullable(),
      lastStep: z.string(),
      pathway: z.string().nullable(),
      joinedAt: z.string().nullable(),
      completedAt: z.string().nullable(),
      flagged: z.array(z.string()),
    }),
  ),
});
export type FlowProgressReply = z.infer<typeof FlowProgressReply>;
export const FlowProgressQuery = z.object({ include_tests: z.enum(['true', 'false']).optional() });

export const flowRoutes = {
  view: defineRoute({
    method: 'GET',
    path: '/api/participants/flow/:experimentId',
    params: FlowParams,
    reply: FlowViewSchema,
  }),
  submit: defineRoute({
    method: 'POST',
    path: '/api/participants/flow/:experimentId/steps/:stepId',
    params: FlowStepParams,
    body: SubmitFlowStepBody,
    reply: FlowViewSchema,
  }),
  generate: defineRoute({
    method: 'POST',
    path: '/api/participants/flow/:experimentId/steps/:stepId/generate',
    params: FlowStepParams,
    reply: GeneratedTextReply,
  }),
  progress: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/flow-progress',
    params: FlowExperimentParams,
    query: FlowProgressQuery,
    reply: FlowProgressReply,
  }),
  codes: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/flow-codes',
    params: FlowExperimentParams,
    reply: FlowCodesReply,
  }),
  updateCodes: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id/flow-codes',
    params: FlowExperimentParams,
    body: UpdateFlowCodesBody,
    reply: FlowCodesReply,
  }),
};
