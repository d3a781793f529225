import { chatLimitReason, type ChatLimitReason } from '@studychat/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { parseJsonObject, toMillis, toNumber, toNumberOrNull } from '../../db/values.js';
import {
  listAssistantUsage,
  listChatThreadUsers,
  listExposures,
  listFinishedSectionViews,
  listPasteAttempts,
  listSurveyAnswers,
  listUserMessages,
  type Scope,
} from './analytics.repository.js';

// What the participants table and participants.csv need beyond the assignment row, loaded set-based for a
// whole experiment or a page of participants and keyed by user id.

/** A participant's survey answers by survey type. */
export type SurveyAnswers = Partial<Record<string, Record<string, unknown>>>;

export interface ChatActivity {
  /** Messages the participant sent. */
  turns: number;
  /** Characters sent, each message trimmed (the chat progress rule). */
  chars: number;
}

export interface AssistantUsage {
  messages: number;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}

export interface SectionExposure {
  seconds: number;
  minSeconds: number;
  /** As the browser reported at the finish (server-timed sections only). */
  visibleSeconds?: number | null;
  hiddenSeconds?: number | null;
}

/** Blocked pastes in the chat box per participant (absent: none). */
export async function loadPasteAttempts(db: Kysely<DB>, scope: Scope): Promise<Map<string, number>> {
  return new Map((await listPasteAttempts(db, scope)).map((r) => [r.user_id, toNumber(r.n)]));
}

export async function loadSurveyAnswers(
  db: Kysely<DB>,
  scope: Scope,
  surveyTypes?: readonly string[],
): Promise<Map<string, SurveyAnswers>> {
  const byUser = new Map<string, SurveyAnswers>();
  for (const row of await listSurveyAnswers(db, scope, surveyTypes)) {
    const answers = byUser.get(row.user_id) ?? {};
    answers[row.survey_type] = parseJsonObject(row.responses) ?? {};
    byUser.set(row.user_id, answers);
  }
  return byUser;
}

/** Turns and trimmed characters per participant. */
export async function loadChatActivity(db: Kysely<DB>, scope: Scope): Promise<Map<string, ChatActivity>> {
  const byUser = new Map<string, ChatActivity>();
  for (const row of await listUserMessages(db, scope)) {
    const activity = byUser.get(row.user_id) ?? { turns: 0, chars: 0 };
    activity.turns += 1;
    activity.chars += row.content.trim().length;
    byUser.set(row.user_id, activity);
  }
  return byUser;
}

/** Participants in scope who have a chat thread (reached the chat), with the limit that ended it, if one did. */
export async function loadChatThreads(db: Kysely<DB>, scope: Scope): Promise<Map<string, ChatLimitReason | null>> {
  return new Map(
    (await listChatThreadUsers(db, scope)).map((row) => [row.user_id, chatLimitReason(row.closed_reason)]),
  );
}

export async function loadAssistantUsage(db: Kysely<DB>, scope: Scope): Promise<Map<string, AssistantUsage>> {
  const rows = await listAssistantUsage(db, scope);
  return new Map(
    rows.map((row) => [
      row.user_id,
      {
        messages: toNumber(row.messages),
        inputTokens: toNumberOrNull(row.input_tokens),
        outputTokens: toNumberOrNull(row.output_tokens),
        costUsd: toNumberOrNull(row.cost_usd),
      },
    ]),
  );
}

/**
 * Seconds per finished section index (0-based), per participant: from the server's opening to its accepting
 * the finish; for sections finished before the server timed them, the seconds on screen the page reported.
 */
export async function loadExposures(db: Kysely<DB>, scope: Scope): Promise<Map<string, Map<number, SectionExposure>>> {
  const byUser = new Map<string, Map<number, SectionExposure>>();
  const put = (userId: string, index: number, exposure: SectionExposure) => {
    const sections = byUser.get(userId) ?? new Map<number, SectionExposure>();
    sections.set(index, exposure);
    byUser.set(userId, sections);
  };
  const [legacy, views] = await Promise.all([listExposures(db, scope), listFinishedSectionViews(db, scope)]);
  for (const row of legacy) {
    put(row.user_id, row.section_index, { seconds: toNumber(row.seconds_on_screen), minSeconds: row.min_seconds });
  }
  for (const row of views) {
    const seconds = (toMillis(row.finished_at) - toMillis(row.opened_at)) / 1000;
    put(row.user_id, row.section_index, {
      seconds,
      minSeconds: row.min_seconds,
      visibleSeconds: toNumberOrNull(row.visible_seconds),
      hiddenSeconds: toNumberOrNull(row.hidden_seconds),
    });
  }
  return byUser;
}
