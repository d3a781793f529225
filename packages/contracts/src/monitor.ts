import { z } from 'zod';
import { defineRoute } from './route.js';
import { ProlificSubmissionStatus } from './prolific.js';
import { CHAT_LIMIT_REASONS } from './chat-limits.js';
import { Condition, Id, IdParams, Pathway, Timestamp } from './common.js';
import {
  EXPERIMENT_STATES,
  JOURNEY_STEPS,
  MONITOR_FUNNEL_STEPS,
  MONITOR_STALE_MINUTES_MAX,
  PARTICIPANT_STATUSES,
  TARGET_SAMPLE_SIZE_MAX,
} from './constants.js';

// The live study monitor (issue 10, docs/decisions/0030): who is where, who is stuck, what it costs.

export const ParticipantStatus = z.enum(PARTICIPANT_STATUSES);

export const MonitorSettings = z.object({
  /** Minutes without activity after which a participant in progress counts as stale. */
  stale_minutes: z.number().int(),
  /** Whether stale_minutes is the experiment's own (false: the default). */
  stale_minutes_set: z.boolean(),
  target_sample_size: z.number().int().nullable(),
});
export type MonitorSettings = z.infer<typeof MonitorSettings>;

export const UpdateMonitorSettingsBody = z
  .object({
    stale_minutes: z
      .number({ error: 'stale_minutes must be a number' })
      .int('stale_minutes must be a whole number')
      .min(1, 'stale_minutes must be at least 1')
      .max(MONITOR_STALE_MINUTES_MAX, `stale_minutes must be at most ${MONITOR_STALE_MINUTES_MAX}`)
      .nullable()
      .optional(),
    target_sample_size: z
      .number({ error: 'target_sample_size must be a number' })
      .int('target_sample_size must be a whole number')
      .min(1, 'target_sample_size must be at least 1')
      .max(TARGET_SAMPLE_SIZE_MAX, `target_sample_size must be at most ${TARGET_SAMPLE_SIZE_MAX}`)
      .nullable()
      .optional(),
  })
  .strict()
  .refine(
    (b) => b.stale_minutes !== undefined || b.target_sample_size !== undefined,
    'Nothing to update: send stale_minutes and/or target_sample_size',
  );

/** One participant as the monitor lists them. */
export const MonitorParticipant = z.object({
  assignment_id: Id,
  user_id: Id,
  login: z.string(),
  prolific_pid: z.string().nullable(),
  /** The participant's submission status on Prolific, from its webhooks; null before any (decision 0083). */
  prolific_status: ProlificSubmissionStatus.nullable(),
  condition: Condition.nullable(),
  status: ParticipantStatus,
  step: z.enum(JOURNEY_STEPS),
  /** 0-based section being read while step is 'sections'. */
  section: z.number().int().nullable(),
  /** When the participant reached the current step (their last accepted journey event, else joining). */
  step_since: Timestamp,
  seconds_on_step: z.number().int(),
  /** Last API call or journey event, whichever is later. */
  last_seen: Timestamp,
  stale: z.boolean(),
  pathway: Pathway.nullable(),
  chat_rounds: z.number().int(),
  /**
   * The limit that ended the participant's chat (messages, tokens, the budget), null if none did: the chat did not
   * run its course, so the intervention may not have been delivered (docs/decisions/0073).
   */
  chat_closed_by: z.enum(CHAT_LIMIT_REASONS).nullable(),
  tokens: z.number().int(),
  cost_usd: z.number(),
  /** A "preview as participant" run (docs/decisions/0045): listed only with include_tests=true (0063). */
  is_test: z.boolean(),
});
export type MonitorParticipant = z.infer<typeof MonitorParticipant>;

const PerCondition = z.record(z.string(), z.number().int());
const PerPathway = z.object({ complete: z.number().int(), confirm: z.number().int(), ceiling: z.number().int() });

/**
 * Every participant counted once: total = screened_out (confirm + ceiling) + not_yet_assigned + in_progress
 * + stale + completed (all pathways). `total` and `conditions` are the spec's.
 */
export const FullParticipantSummary = z.object({
  total: z.number().int(),
  conditions: PerCondition,
  /** Reached the no-concerns or ceiling exit and have not recorded completion yet. */
  screened_out: z.object({ confirm: z.number().int(), ceiling: z.number().int() }),
  /** In progress (not stale) before a condition was assigned. */
  not_yet_assigned: z.number().int(),
  /** In progress (not stale) with a condition. */
  in_progress: z.number().int(),
  /** In progress without activity for the stale minutes. */
  stale: z.number().int(),
  /** Completion recorded, per pathway. */
  completed: PerPathway,
});
export type FullParticipantSummary = z.infer<typeof FullParticipantSummary>;

export const FunnelStep = z.object({
  key: z.enum(MONITOR_FUNNEL_STEPS),
  /** Participants who got past this point. */
  reached: z.number().int(),
  /** Participants whose current step is here and who are stale (dropped here). */
  dropped: z.number().int(),
});
export const MonitorFunnel = z.object({
  steps: z.array(FunnelStep),
  assigned: PerCondition,
  completed: PerPathway,
  /** CONSORT: screened out at the entry question (no concerns) and at the intention ceiling (7). */
  screened_out_confirm: z.number().int(),
  screened_out_ceiling: z.number().int(),
});
export type MonitorFunnel = z.infer<typeof MonitorFunnel>;

export const SpendLine = z.object({ participants: z.number().int(), tokens: z.number().int(), cost_usd: z.number() });
export const MonitorSpend = z.object({
  tokens: z.number().int(),
  cost_usd: z.number(),
  /**
   * Of `tokens`, the input written to the provider's prompt cache and read from it (docs/decisions/0076); cost_usd
   * counts each at its own rate.
   */
  cache_write_tokens: z.number().int(),
  cache_read_tokens: z.number().int(),
  by_condition: z.record(z.string(), SpendLine),
  /** Mean cost of a participant who started the chat; null before anyone did. */
  cost_per_participant_usd: z.number().nullable(),
  target_sample_size: z.number().int().nullable(),
  /** cost_per_participant_usd x target_sample_size; null without either. */
  projected_usd: z.number().nullable(),
  projected_tokens: z.number().int().nullable(),
  /**
   * "Preview as participant" runs (docs/decisions/0045, 0057): what admins' test runs cost, apart. They are in
   * none of the numbers above (the mean per participant and the projection are real participants' only);
   * the provider's bill so far is cost_usd + previews.cost_usd.
   */
  previews: z.object({
    /** Preview participants created for the experiment. */
    runs: z.number().int(),
    /** Of those, the ones that started the chat. */
    chats: z.number().int(),
    tokens: z.number().int(),
    cost_usd: z.number(),
  }),
});
export type MonitorSpend = z.infer<typeof MonitorSpend>;

export const SrmStratum = z.object({
  stratum: z.string(),
  counts: PerCondition,
  chi_square: z.number(),
  /** Chi-square test against equal allocation; 1 when there is nobody in the stratum. */
  p_value: z.number(),
  /** Largest difference between the arms the permuted blocks allow. */
  allowed_imbalance: z.number().int(),
  imbalance: z.number().int(),
  warning: z.boolean(),
});
export const MonitorSrm = z.object({ strata: z.array(SrmStratum), warning: z.string().nullable() });
export type MonitorSrm = z.infer<typeof MonitorSrm>;

export const MonitorReply = z.object({
  generated_at: Timestamp,
  /** Position in the journey event log the snapshot includes (the stream's cursor). */
  seq: z.number().int(),
  /** The experiment's state (docs/decisions/0077): draft, open, paused, closed or archived. */
  state: z.enum(EXPERIMENT_STATES),
  settings: MonitorSettings,
  summary: FullParticipantSummary,
  funnel: MonitorFunnel,
  spend: MonitorSpend,
  srm: MonitorSrm,
  participants: z.array(MonitorParticipant),
});
export type MonitorReply = z.infer<typeof MonitorReply>;

/**
 * `include_tests=true` adds the test runs ("preview as participant") to the participant list, marked
 * `is_test`; the summary, funnel, spend and ratio check count real participants only either way (0063).
 */
export const MonitorQuery = z.object({ include_tests: z.enum(['true', 'false']).optional() });
export type MonitorQuery = z.infer<typeof MonitorQuery>;

export const HeartbeatReply = z.object({ ok: z.literal(true) });

export const monitorRoutes = {
  /** The experiment's live monitor snapshot (admins and analysts). */
  get: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/monitor',
    params: IdParams,
    query: MonitorQuery,
    reply: MonitorReply,
  }),
  /** Stale minutes and the target sample size (admins). */
  updateSettings: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id/monitor/settings',
    params: IdParams,
    body: UpdateMonitorSettingsBody,
    reply: MonitorSettings,
  }),
  /** Server-sent events: `data: {"seq": n, "events": k}` when the event log moves (admins and analysts). */
  stream: defineRoute({ method: 'GET', path: '/api/experiments/:id/monitor/stream', params: IdParams }),
  /** A participant's page is visible: counts as activity for last seen. */
  heartbeat: defineRoute({ method: 'POST', path: '/api/participants/heartbeat', reply: HeartbeatReply }),
};
