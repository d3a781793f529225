import {
  SURVEY_TYPES,
  type AdminMessage,
  type AdminThread,
  type AdminUser,
  type SurveyResponse,
} from '@studychat/contracts';
import type { ChatMessageRow, SurveyResponseRow, UserRow } from '../../db/schema.js';
import { parseJsonObject, toBool, toIso, toIsoOrNull, toNumber, toNumberOrNull } from '../../db/values.js';
import { threadTitle } from '../chat/chat.mapper.js';

/** A stored text value narrowed to one of the allowed values, or null (an unknown value is never passed on). */
function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | null {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;
}

export function toAdminUser(row: UserRow & { is_test: boolean | number }): AdminUser {
  return {
    id: row.id,
    email: row.email,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    last_login_at: toIsoOrNull(row.last_login_at),
    is_admin: toBool(row.is_admin),
    is_test: toBool(row.is_test),
    metadata: parseJsonObject(row.metadata),
  };
}

export interface ThreadSummaryRow {
  id: string;
  experiment_id: string;
  title: string | null;
  condition: string;
  created_at: Date | string;
  message_count: number | string | bigint | null;
  last_message_at: Date | string | null;
}

export function toAdminThread(row: ThreadSummaryRow): AdminThread {
  return {
    id: row.id,
    experiment_id: row.experiment_id,
    // Threads started before titles were stored get one from their condition and start time.
    title: row.title ?? threadTitle(row.condition, toIso(row.created_at)),
    message_count: row.message_count === null ? 0 : toNumber(row.message_count),
    last_message_at: toIsoOrNull(row.last_message_at),
  };
}

export function toAdminMessage(row: ChatMessageRow): AdminMessage {
  const input = row.input_tokens;
  const output = row.output_tokens;
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    created_at: toIso(row.created_at),
    status: row.status,
    error_message: row.error_message,
    thinking_log: row.thinking_log,
    model_used: row.model_used,
    // Input plus output; a missing half counts as 0, and null only when neither was recorded.
    tokens_used: input === null && output === null ? null : (input ?? 0) + (output ?? 0),
    input_tokens: input,
    output_tokens: output,
    uncached_input_tokens: row.uncached_input_tokens ?? null,
    cache_write_tokens: row.cache_write_tokens ?? null,
    cache_read_tokens: row.cache_read_tokens ?? null,
    cost_usd: toNumberOrNull(row.cost_usd),
    queue_ms: row.queue_ms ?? null,
    fallback_from: row.fallback_from ?? null,
    first_token_ms: row.first_token_ms,
    total_ms: row.total_ms,
    stop_reason: row.stop_reason,
  };
}

/** Survey rows whose type is unknown are skipped by the caller; responses are always an object. */
export function toSurveyResponse(row: SurveyResponseRow): SurveyResponse | null {
  const surveyType = oneOf(SURVEY_TYPES, row.survey_type);
  if (surveyType === null) return null;
  return {
    id: row.id,
    experiment_id: row.experiment_id,
    survey_type: surveyType,
    responses: parseJsonObject(row.responses) ?? {},
    created_at: toIso(row.created_at),
  };
}
