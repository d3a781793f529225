import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, IdParams, Timestamp } from './common.js';
import { TARGET_SAMPLE_SIZE_MAX } from './constants.js';
import {
  PILOT_AGE_GROUPS,
  PILOT_PARTICIPANTS_MAX,
  PILOT_STANCES,
  PILOT_VERBOSITIES,
  type PilotPersona,
} from './pilot-personas.js';

// A pilot run before launch (issue 35, docs/decisions/0085): simulated participants walk the experiment's pinned
// study through the participant API, and the run's report says what a researcher checks before paying people.

export const PilotPersonaSchema = z
  .object({
    ageGroup: z.enum(PILOT_AGE_GROUPS),
    stance: z.enum(PILOT_STANCES),
    verbosity: z.enum(PILOT_VERBOSITIES),
    leaveTendency: z.number().min(0).max(1),
  })
  .strict();

export const StartPilotBody = z
  .object({
    /** Simulated participants (1-50); with `personas`, it must be their number. */
    participants: z.number().int().min(1).max(PILOT_PARTICIPANTS_MAX),
    /** The sample size the report projects tokens and cost at. */
    target_sample: z.number().int().min(1).max(TARGET_SAMPLE_SIZE_MAX),
    /** The seed of the personas' sampling and answers (absent: drawn by the server). */
    seed: z.number().int().min(0).max(2_147_483_647).optional(),
    /** The personas as edited on the page (absent: sampled from the seed). */
    personas: z.array(PilotPersonaSchema).max(PILOT_PARTICIPANTS_MAX).optional(),
  })
  .strict()
  .refine((b) => b.personas === undefined || b.personas.length === b.participants, {
    message: 'participants must be the number of personas given',
    path: ['participants'],
  });
export type StartPilotBody = z.infer<typeof StartPilotBody>;

/** One simulated participant's walk. */
export interface PilotParticipantResult {
  index: number;
  persona: PilotPersona;
  userId: string;
  prolificPid: string;
  condition: string | null;
  /** The pathway their completion recorded; null if they did not complete. */
  pathway: string | null;
  /** The last step they were at (the step they left or were refused at, or the end). */
  lastStep: string;
  /** Why they stopped short of completion: they left (the persona's tendency), or the server refused a write. */
  stopped: { reason: 'left' | 'refused' | 'stuck'; detail: string } | null;
  simulatedSeconds: number;
  chat: { rounds: number; ruleReached: boolean; closed: string | null } | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface PilotPathwayResult {
  key: string;
  label: string;
  reached: number;
  /** Why no persona reached it (null when one did). */
  why: string | null;
}

export interface PilotArmResult {
  condition: string;
  label: string;
  /** Share of the sample randomised to this arm (0-1). */
  share: number;
  participants: number;
  completed: number;
  chatStarted: number;
  ruleReached: number;
  /** Rounds the chats that reached their rule took (null: none did). */
  rounds: { min: number; median: number; max: number } | null;
  /** The least seconds the server lets a participant of this arm take, and the pilot's median for completers. */
  minimumSeconds: number;
  simulatedSeconds: number | null;
  /** Mean per participant who started the chat; the measured cost is the deployment's model's. */
  perParticipant: { inputTokens: number; outputTokens: number; costUsd: number };
  /** The measured tokens priced at the model the arm names (null: the deployment's model, or no known price). */
  atArmModel: { model: string; costUsd: number } | null;
  /** At the target sample size: the arm's share of it, with the measured mean per participant. */
  projected: { participants: number; inputTokens: number; outputTokens: number; costUsd: number };
  /** The cost estimate before launch (issue 32) for the same arm and sample size, for comparison; null: unknown. */
  estimatedCostUsd: number | null;
}

export interface PilotStepResult {
  step: string;
  /** Personas who reached the step. */
  reached: number;
  /** The least seconds the server enforces at the step (median over the personas who did it). */
  minimumSeconds: number;
  /** Median simulated seconds spent on it. */
  simulatedSeconds: number;
}

export interface PilotReport {
  kind: 'built-in' | 'flow';
  studyTitle: string;
  participants: number;
  targetSample: number;
  seed: number;
  /** Wall-clock milliseconds the run took. */
  durationMs: number;
  completed: number;
  pathways: PilotPathwayResult[];
  arms: PilotArmResult[];
  steps: PilotStepResult[];
  /** Projected over the whole target sample: every arm summed. */
  projected: { inputTokens: number; outputTokens: number; costUsd: number };
  warnings: { path: string; message: string }[];
  results: PilotParticipantResult[];
  caveat: string;
}

export interface PilotRun {
  id: string;
  experimentId: string;
  createdBy: string | null;
  createdAt: string;
  finishedAt: string;
  report: PilotReport;
}

const PilotRunSchema = z.custom<PilotRun>((v) => typeof v === 'object' && v !== null);

export const PilotRunSummary = z.object({
  id: Id,
  createdAt: Timestamp,
  participants: z.number().int(),
  targetSample: z.number().int(),
  completed: z.number().int(),
  warnings: z.number().int(),
});
export type PilotRunSummary = z.infer<typeof PilotRunSummary>;

export const PilotRunListReply = z.object({ runs: z.array(PilotRunSummary) });
export type PilotRunListReply = z.infer<typeof PilotRunListReply>;

export const PilotRunParams = z.object({ id: Id, pilotId: Id });

export const pilotRoutes = {
  /** Runs a pilot and returns its report (admins; the run takes seconds). */
  start: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/pilots',
    params: IdParams,
    body: StartPilotBody,
    reply: PilotRunSchema,
    status: 201,
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/pilots',
    params: IdParams,
    reply: PilotRunListReply,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/pilots/:pilotId',
    params: PilotRunParams,
    reply: PilotRunSchema,
  }),
};
