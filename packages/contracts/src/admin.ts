import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, IdParams, Timestamp } from './common.js';
import { USER_SORT_FIELDS } from './constants.js';
import { MessageStatus } from './chat.js';
import { BudgetStatus } from './chat-settings.js';
import { Assignment } from './participants.js';
import { SurveyResponse } from './surveys.js';

export const AdminUser = z.object({
  id: Id,
  email: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  last_login_at: Timestamp.nullable(),
  is_admin: z.boolean(),
  /** A test participant of "preview as participant" (an is_test assignment; docs/decisions/0045, 0057). */
  is_test: z.boolean(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const UserSortField = z.enum(USER_SORT_FIELDS);
export type UserSortField = z.infer<typeof UserSortField>;
export const SortOrder = z.enum(['asc', 'desc']);
export type SortOrder = z.infer<typeof SortOrder>;
export const UsersQuery = z.object({
  sortBy: UserSortField.default('created_at'),
  order: SortOrder.default('desc'),
});

export const AdminThread = z.object({
  id: Id,
  experiment_id: Id,
  title: z.string().nullable(),
  message_count: z.number().int(),
  last_message_at: Timestamp.nullable(),
});
export type AdminThread = z.infer<typeof AdminThread>;

/** One entry of a parsed thinking log (spec section 3). */
export const ThinkingEntry = z.union([
  z.object({ type: z.literal('thinking'), thinking: z.string() }),
  z.object({ type: z.literal('redacted_thinking') }),
  z.object({ type: z.literal('error'), text: z.string() }),
]);
export type ThinkingEntry = z.infer<typeof ThinkingEntry>;

export const AdminMessage = z.object({
  id: Id,
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  created_at: Timestamp,
  status: MessageStatus,
  /** Why a reply failed or stopped (provider error, server stopped); null when complete. */
  error_message: z.string().nullable(),
  /** JSON string: an array of `{type:'thinking', thinking}` and `{type:'redacted_thinking'}` entries, in order. */
  thinking_log: z.string().nullable(),
  model_used: z.string().nullable(),
  tokens_used: z.number().int().nullable(),
  input_tokens: z.number().int().nullable(),
  output_tokens: z.number().int().nullable(),
  /**
   * Of input_tokens, those billed at the plain input price, written to the provider's prompt cache and read from it
   * (docs/decisions/0076); null when not recorded (older messages, or no usage reported).
   */
  uncached_input_tokens: z.number().int().nullable(),
  cache_write_tokens: z.number().int().nullable(),
  cache_read_tokens: z.number().int().nullable(),
  cost_usd: z.number().nullable(),
  /** Milliseconds the reply waited its turn at the provider; null: it did not wait (docs/decisions/0076). */
  queue_ms: z.number().int().nullable(),
  /** The condition's model this reply's fallback model stood in for; null: the condition's model answered. */
  fallback_from: z.string().nullable(),
  first_token_ms: z.number().int().nullable(),
  total_ms: z.number().int().nullable(),
  stop_reason: z.string().nullable(),
});
export type AdminMessage = z.infer<typeof AdminMessage>;

export const SystemInfo = z.object({
  llmProvider: z.enum(['anthropic', 'openai', 'scripted']),
  llmModel: z.string(),
  /** True when the scripted offline model answers: no real AI model is connected. */
  scripted: z.boolean(),
  /** Experiments whose chat budget is 80% or more spent, for a warning on every admin page. */
  budgetAlerts: z.array(BudgetStatus.extend({ experimentId: Id, name: z.string() })),
});
export type SystemInfo = z.infer<typeof SystemInfo>;

export const MODEL_PROBLEMS = [
  'key',
  'model',
  'quota',
  'rate_limited',
  'unavailable',
  'network',
  'rejected',
  'empty',
  'price',
] as const;
export type ModelProblem = (typeof MODEL_PROBLEMS)[number];

/** The result of a tiny request to the configured model, in plain words. */
export const ModelCheckReply = z.object({
  ok: z.boolean(),
  provider: z.enum(['anthropic', 'openai', 'scripted']),
  model: z.string(),
  /** What is wrong, as a category; null when the check passed. */
  problem: z.enum(MODEL_PROBLEMS).nullable(),
  /** One or two sentences for the researcher: what happened and what to change. */
  message: z.string(),
  latencyMs: z.number().int(),
});
export type ModelCheckReply = z.infer<typeof ModelCheckReply>;

const UserThreadParams = z.object({ id: Id, threadId: Id });

export const adminRoutes = {
  users: defineRoute({ method: 'GET', path: '/api/admin/users', query: UsersQuery, reply: z.array(AdminUser) }),
  user: defineRoute({ method: 'GET', path: '/api/admin/users/:id', params: IdParams, reply: AdminUser }),
  threads: defineRoute({
    method: 'GET',
    path: '/api/admin/users/:id/threads',
    params: IdParams,
    reply: z.array(AdminThread),
  }),
  threadMessages: defineRoute({
    method: 'GET',
    path: '/api/admin/users/:id/threads/:threadId/messages',
    params: UserThreadParams,
    reply: z.array(AdminMessage),
  }),
  assignments: defineRoute({
    method: 'GET',
    path: '/api/admin/users/:id/assignments',
    params: IdParams,
    reply: z.array(Assignment),
  }),
  surveyResponses: defineRoute({
    method: 'GET',
    path: '/api/admin/users/:id/survey-responses',
    params: IdParams,
    reply: z.array(SurveyResponse),
  }),
  system: defineRoute({ method: 'GET', path: '/api/admin/system', reply: SystemInfo }),
  /** Sends a tiny request to the configured model and says what is wrong, if anything. */
  modelCheck: defineRoute({ method: 'POST', path: '/api/admin/model-check', reply: ModelCheckReply }),
};
