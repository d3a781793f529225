import { Readable } from 'node:stream';
import {
  studyDefinition,
  type ExportFile,
  type ParticipantStatusName,
  type StudyDefinition,
} from '@studychat/contracts';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../lib/deps.js';
import { statusByUser } from '../monitor/monitor.service.js';
import type { ChatMessageRow, DB } from '../../db/schema.js';
import { parseJsonObject, toBool, toIso, toNumberOrNull } from '../../db/values.js';
import { notFound } from '../../lib/errors.js';
import {
  experimentExists,
  listDuplicateProlificPids,
  listMessagesOfThreads,
  listProlificPids,
  pageParticipantBase,
  pageSurveysForExport,
  pageThreadsForExport,
  participantCursor,
  surveyCursor,
  threadCursor,
  type SurveyExportRow,
  type ThreadExportRow,
} from './analytics.repository.js';
import { CODEBOOK_COLUMNS, codebookEntries, type CodebookEntry } from './codebook.js';
import { csvHeader, csvRow, type CsvColumn } from './csv.js';
import {
  MESSAGE_COLUMNS,
  SURVEY_COLUMNS,
  dataFileColumns,
  participantColumns,
  type MessageRecord,
  type SurveyAnswerRecord,
} from './export-columns.js';
import { keysetPages } from './keyset.js';
import {
  loadAssistantUsage,
  loadChatActivity,
  loadChatThreads,
  loadExposures,
  loadPasteAttempts,
  loadSurveyAnswers,
} from './participant-facts.js';
import { studiesById } from './package.repository.js';
import { toParticipantRecord, type ParticipantRecord } from './participant-record.js';

// The CSV exports are produced page by page (keyset pagination) and pulled by the HTTP response: the next
// page is read only when the client has taken the previous one, so a large study never sits in memory.

/** Rows per page: participants, chat threads (all their messages come along) and survey responses. */
export const DEFAULT_PAGE_SIZES = { participants: 500, threads: 100, surveys: 1000 } as const;

/** How participants.csv is read: page size, the statuses, test runs or not, the pinned study's sections. */
export interface ParticipantExportOptions {
  pageSize?: number;
  statuses?: Map<string, ParticipantStatusName> | undefined;
  includeTests?: boolean;
  study?: StudyDefinition;
}

/** participants.csv's records, one page of participants at a time. */
export async function* participantRecords(
  db: Kysely<DB>,
  experimentId: string,
  options: ParticipantExportOptions = {},
): AsyncGenerator<ParticipantRecord[]> {
  const { pageSize = DEFAULT_PAGE_SIZES.participants, statuses, includeTests = false, study } = options;
  const duplicatePids = await listDuplicateProlificPids(db, experimentId, includeTests);
  // Only a test run can be stamped with another version than the pinned one (0045, 0047).
  const versions = includeTests ? await studiesById(db, experimentId) : undefined;
  const pages = keysetPages(
    (after, limit) => pageParticipantBase(db, experimentId, after, limit, includeTests),
    participantCursor,
    pageSize,
  );
  for await (const page of pages) {
    const scope = { experimentId, userIds: page.map((p) => p.user_id) };
    const [surveys, chat, threads, usage, exposures, pastes] = await Promise.all([
      loadSurveyAnswers(db, scope),
      loadChatActivity(db, scope),
      loadChatThreads(db, scope),
      loadAssistantUsage(db, scope),
      loadExposures(db, scope),
      loadPasteAttempts(db, scope),
    ]);
    const facts = { surveys, chat, threads, usage, exposures, duplicatePids, statuses, pastes, study, versions };
    yield page.map((base) => toParticipantRecord(experimentId, base, facts));
  }
}

/** A file's CSV text: its header, then one chunk per page of records. */
export async function* csvOf<Row>(
  columns: readonly CsvColumn<Row>[],
  pages: AsyncIterable<Row[]>,
): AsyncGenerator<string> {
  yield csvHeader(columns);
  for await (const page of pages) yield page.map((record) => csvRow(columns, record)).join('');
}

export function participantsCsv(
  db: Kysely<DB>,
  experimentId: string,
  pageSize?: number,
  options: Omit<ParticipantExportOptions, 'pageSize'> = {},
): AsyncGenerator<string> {
  const columns = participantColumns(options.study ?? studyDefinition);
  return csvOf(columns, participantRecords(db, experimentId, { ...options, ...(pageSize ? { pageSize } : {}) }));
}

function toMessageRecord(thread: ThreadExportRow, prolificPid: string | null, row: ChatMessageRow): MessageRecord {
  return {
    experimentId: thread.experiment_id,
    userId: thread.user_id,
    prolificPid,
    condition: thread.condition,
    threadId: thread.id,
    messageId: row.id,
    position: row.position,
    role: row.role,
    content: row.content,
    createdAt: toIso(row.created_at),
    isInitial: toBool(row.is_initial),
    status: row.status,
    errorMessage: row.error_message,
    modelUsed: row.model_used,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    usageEstimated: toBool(row.usage_estimated),
    uncachedInputTokens: row.uncached_input_tokens ?? null,
    cacheWriteTokens: row.cache_write_tokens ?? null,
    cacheReadTokens: row.cache_read_tokens ?? null,
    costUsd: toNumberOrNull(row.cost_usd),
    queueMs: row.queue_ms ?? null,
    fallbackFrom: row.fallback_from ?? null,
    firstTokenMs: row.first_token_ms,
    totalMs: row.total_ms,
    stopReason: row.stop_reason,
    thinking: row.thinking_log,
  };
}

/** Messages are paged by thread: a page of threads, then all their messages through the thread index. */
export async function* messageRecords(
  db: Kysely<DB>,
  experimentId: string,
  threadsPerPage: number = DEFAULT_PAGE_SIZES.threads,
  includeTests = false,
): AsyncGenerator<MessageRecord[]> {
  const pages = keysetPages(
    (after, limit) => pageThreadsForExport(db, experimentId, after, limit, includeTests),
    threadCursor,
    threadsPerPage,
  );
  for await (const threads of pages) {
    const [messages, pids] = await Promise.all([
      listMessagesOfThreads(
        db,
        threads.map((t) => t.id),
      ),
      listProlificPids(
        db,
        experimentId,
        threads.map((t) => t.user_id),
      ),
    ]);
    const byThread = new Map<string, ChatMessageRow[]>();
    for (const m of messages) {
      const list = byThread.get(m.thread_id);
      if (list) list.push(m);
      else byThread.set(m.thread_id, [m]);
    }
    yield threads.flatMap((thread) =>
      (byThread.get(thread.id) ?? []).map((m) => toMessageRecord(thread, pids.get(thread.user_id) ?? null, m)),
    );
  }
}

export function messagesCsv(
  db: Kysely<DB>,
  experimentId: string,
  threadsPerPage?: number,
  includeTests = false,
): AsyncGenerator<string> {
  return csvOf(MESSAGE_COLUMNS, messageRecords(db, experimentId, threadsPerPage, includeTests));
}

function answerValue(value: unknown): SurveyAnswerRecord['value'] {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** A stored response as one record per question, in the order the answers were stored. */
function toAnswerRecords(row: SurveyExportRow, prolificPid: string | null): SurveyAnswerRecord[] {
  const responses = parseJsonObject(row.responses) ?? {};
  return Object.entries(responses).map(([question, value]) => ({
    experimentId: row.experiment_id,
    userId: row.user_id,
    prolificPid: prolificPid ?? row.prolific_pid,
    responseId: row.id,
    surveyType: row.survey_type,
    question,
    value: answerValue(value),
    submittedAt: toIso(row.created_at),
  }));
}

export async function* surveyRecords(
  db: Kysely<DB>,
  experimentId: string,
  pageSize: number = DEFAULT_PAGE_SIZES.surveys,
  includeTests = false,
): AsyncGenerator<SurveyAnswerRecord[]> {
  const pages = keysetPages(
    (after, limit) => pageSurveysForExport(db, experimentId, after, limit, includeTests),
    surveyCursor,
    pageSize,
  );
  for await (const page of pages) {
    const pids = await listProlificPids(
      db,
      experimentId,
      page.map((r) => r.user_id),
    );
    yield page.flatMap((row) => toAnswerRecords(row, pids.get(row.user_id) ?? null));
  }
}

export function surveysCsv(
  db: Kysely<DB>,
  experimentId: string,
  pageSize?: number,
  includeTests = false,
): AsyncGenerator<string> {
  return csvOf(SURVEY_COLUMNS, surveyRecords(db, experimentId, pageSize, includeTests));
}

// The codebook has no data of its own; async like the others so every file streams the same way. It
// describes the columns of the study version the experiment pins.
export async function* codebookRecords(study: StudyDefinition): AsyncGenerator<CodebookEntry[]> {
  yield codebookEntries(dataFileColumns(study));
}

export function codebookCsv(study: StudyDefinition): AsyncGenerator<string> {
  return csvOf(CODEBOOK_COLUMNS, codebookRecords(study));
}

export interface ExportDownload {
  filename: string;
  body: Readable;
}

/**
 * An export file as a byte stream the response pulls from (one page in memory at a time). Unknown
 * experiment: 404, before anything is sent. Test runs are left out unless `includeTests` (0027).
 */
export async function exportFile(
  deps: AppDeps,
  experimentId: string,
  file: ExportFile,
  includeTests = false,
): Promise<ExportDownload> {
  const { db } = deps.database;
  if (!(await experimentExists(db, experimentId))) throw notFound('Experiment not found');
  // Statuses at the time of the export, computed once for the experiment (the monitor's rule).
  const statuses = file === 'participants.csv' ? await statusByUser(deps, experimentId) : undefined;
  const study = await deps.studies(experimentId);
  const generators: Record<ExportFile, () => AsyncGenerator<string>> = {
    'participants.csv': () =>
      participantsCsv(db, experimentId, DEFAULT_PAGE_SIZES.participants, { statuses, includeTests, study }),
    'messages.csv': () => messagesCsv(db, experimentId, undefined, includeTests),
    'surveys.csv': () => surveysCsv(db, experimentId, undefined, includeTests),
    'codebook.csv': () => codebookCsv(study),
  };
  // Byte mode with a small high-water mark: each page is larger than it, so pages are read one at a time.
  const body = Readable.from(generators[file](), { objectMode: false, highWaterMark: 64 * 1024 });
  return { filename: `experiment-${experimentId}-${file}`, body };
}
