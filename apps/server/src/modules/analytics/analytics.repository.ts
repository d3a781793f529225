import type { Kysely } from 'kysely';
import type { ChatMessageRow, DB, SurveyResponseRow } from '../../db/schema.js';

// Set-based reads for the participant summary, the participants table and the exports: every query covers
// a whole experiment, or one page of its participants (`userIds`), never one participant at a time.

/**
 * The users of an experiment whose participation is a test run ("preview as participant", is_test): the
 * exports leave them out unless asked to include them (docs/decisions/0027).
 */
export function testRunUsers(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('assignments')
    .where('experiment_id', '=', experimentId)
    .where('is_test', '=', true)
    .select('user_id');
}

/** Which participants a query covers: the whole experiment, or the listed users of it. */
export interface Scope {
  experimentId: string;
  userIds?: readonly string[];
}

export async function experimentExists(db: Kysely<DB>, experimentId: string): Promise<boolean> {
  const row = await db.selectFrom('experiments').select('id').where('id', '=', experimentId).executeTakeFirst();
  return row !== undefined;
}

export async function countAssignmentsByCondition(
  db: Kysely<DB>,
  experimentId: string,
): Promise<{ condition: string | null; n: number | string | bigint }[]> {
  return db
    .selectFrom('assignments')
    .where('experiment_id', '=', experimentId)
    .select((eb) => ['assigned_condition as condition', eb.fn.countAll<number | string | bigint>().as('n')])
    .groupBy('assigned_condition')
    .execute();
}

function participantBaseQuery(db: Kysely<DB>, experimentId: string, includeTests = false) {
  let query = db
    .selectFrom('assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('allocation_slots as s', 's.assignment_id', 'a.id')
    .where('a.experiment_id', '=', experimentId);
  if (!includeTests) query = query.where('a.is_test', '=', false);
  return query.select([
    's.block_index',
    's.seq as slot_seq',
    'a.id as assignment_id',
    'a.user_id',
    'u.email',
    'u.last_login_at',
    'a.prolific_pid',
    'a.study_id',
    'a.session_id',
    'a.assigned_condition',
    'a.stratum',
    'a.condition_assigned_at',
    'a.created_at',
    'a.consent_given',
    'a.consent_timestamp',
    'a.intervention_completed_timestamp',
    'a.completion_pathway',
    'a.completion_code',
    'a.completed_at',
    'a.is_test',
    'a.study_version_id',
  ]);
}

export type ParticipantBaseRow = Awaited<
  ReturnType<ReturnType<typeof participantBaseQuery>['executeTakeFirstOrThrow']>
>;

/** Position of a participant in the (created_at, id) order of assignments. */
export interface ParticipantCursor {
  createdAt: Date | string;
  assignmentId: string;
}

export function participantCursor(row: ParticipantBaseRow): ParticipantCursor {
  return { createdAt: row.created_at, assignmentId: row.assignment_id };
}

/** Every participant (assignment) of an experiment with their account, in enrolment order; test runs only if asked. */
export function listParticipantBase(
  db: Kysely<DB>,
  experimentId: string,
  includeTests = false,
): Promise<ParticipantBaseRow[]> {
  return participantBaseQuery(db, experimentId, includeTests).orderBy('a.created_at').orderBy('a.id').execute();
}

/** One page of `listParticipantBase`, after the given cursor. */
export function pageParticipantBase(
  db: Kysely<DB>,
  experimentId: string,
  after: ParticipantCursor | null,
  limit: number,
  includeTests = false,
): Promise<ParticipantBaseRow[]> {
  let query = participantBaseQuery(db, experimentId, includeTests);
  if (after) {
    query = query.where(({ eb, refTuple, tuple }) =>
      eb(refTuple('a.created_at', 'a.id'), '>', tuple(after.createdAt, after.assignmentId)),
    );
  }
  return query.orderBy('a.created_at').orderBy('a.id').limit(limit).execute();
}

/** Prolific ids that more than one participant of the experiment carries. */
export async function listDuplicateProlificPids(
  db: Kysely<DB>,
  experimentId: string,
  includeTests = false,
): Promise<Set<string>> {
  let query = db.selectFrom('assignments').where('experiment_id', '=', experimentId);
  if (!includeTests) query = query.where('is_test', '=', false);
  const rows = await query
    .where('prolific_pid', 'is not', null)
    .select('prolific_pid')
    .groupBy('prolific_pid')
    .having((eb) => eb.fn.countAll(), '>', 1)
    .$narrowType<{ prolific_pid: string }>()
    .execute();
  return new Set(rows.map((r) => r.prolific_pid));
}

export interface SurveyAnswerRow {
  user_id: string;
  survey_type: string;
  responses: string;
}

/** Stored survey responses (JSON text) of the participants in scope, optionally of some types only. */
export function listSurveyAnswers(
  db: Kysely<DB>,
  scope: Scope,
  surveyTypes?: readonly string[],
): Promise<SurveyAnswerRow[]> {
  let query = db
    .selectFrom('survey_responses')
    .where('experiment_id', '=', scope.experimentId)
    .select(['user_id', 'survey_type', 'responses']);
  if (scope.userIds) query = query.where('user_id', 'in', [...scope.userIds]);
  if (surveyTypes) query = query.where('survey_type', 'in', [...surveyTypes]);
  return query.execute();
}

export interface ExposureRow {
  user_id: string;
  section_index: number;
  seconds_on_screen: number | string;
  min_seconds: number;
}

/** Browser-timed section records from before the server timed the sections (still exported). */
export function listExposures(db: Kysely<DB>, scope: Scope): Promise<ExposureRow[]> {
  let query = db
    .selectFrom('section_exposures')
    .where('experiment_id', '=', scope.experimentId)
    .select(['user_id', 'section_index', 'seconds_on_screen', 'min_seconds']);
  if (scope.userIds) query = query.where('user_id', 'in', [...scope.userIds]);
  return query.execute();
}

export interface SectionViewTimesRow {
  user_id: string;
  section_index: number;
  min_seconds: number;
  opened_at: Date | string;
  finished_at: Date | string;
  visible_seconds: number | string | null;
  hidden_seconds: number | string | null;
}

/** Sections the server opened and saw finished, with their server times (unfinished ones are left out). */
export function listFinishedSectionViews(db: Kysely<DB>, scope: Scope): Promise<SectionViewTimesRow[]> {
  let query = db
    .selectFrom('section_views')
    .where('experiment_id', '=', scope.experimentId)
    .where('finished_at', 'is not', null)
    .select([
      'user_id',
      'section_index',
      'min_seconds',
      'opened_at',
      'finished_at',
      'visible_seconds',
      'hidden_seconds',
    ])
    .$narrowType<{ finished_at: Date | string }>();
  if (scope.userIds) query = query.where('user_id', 'in', [...scope.userIds]);
  return query.execute();
}

export interface UserMessageRow {
  user_id: string;
  content: string;
}

/**
 * The participants' own chat messages. The text is needed because characters are counted as the chat's
 * progress rule counts them (JavaScript trim and length), which SQL cannot match. Callers pass a page of
 * participants, so the text of one page at most is in memory.
 */
export function listUserMessages(db: Kysely<DB>, scope: Scope): Promise<UserMessageRow[]> {
  let query = db
    .selectFrom('chat_messages as m')
    .innerJoin('chat_threads as t', 't.id', 'm.thread_id')
    .where('t.experiment_id', '=', scope.experimentId)
    .where('m.role', '=', 'user')
    .select(['t.user_id', 'm.content']);
  if (scope.userIds) query = query.where('t.user_id', 'in', [...scope.userIds]);
  return query.execute();
}

/** Blocked pastes in the chat box (`paste_blocked` events) per participant in scope; none: no row. */
export function listPasteAttempts(
  db: Kysely<DB>,
  scope: Scope,
): Promise<{ user_id: string; n: number | string | bigint }[]> {
  let query = db
    .selectFrom('journey_events')
    .where('experiment_id', '=', scope.experimentId)
    .where('type', '=', 'paste_blocked')
    .select((eb) => ['user_id', eb.fn.countAll<number | string | bigint>().as('n')])
    .groupBy('user_id');
  if (scope.userIds) query = query.where('user_id', 'in', [...scope.userIds]);
  return query.execute();
}

/** The participants in scope who have a chat thread, with why their chat was closed (null: it was not). */
export function listChatThreadUsers(
  db: Kysely<DB>,
  scope: Scope,
): Promise<{ user_id: string; closed_reason: string | null }[]> {
  let query = db
    .selectFrom('chat_threads')
    .where('experiment_id', '=', scope.experimentId)
    .select(['user_id', 'closed_reason']);
  if (scope.userIds) query = query.where('user_id', 'in', [...scope.userIds]);
  return query.execute();
}

export interface AssistantUsageRow {
  user_id: string;
  messages: number | string | bigint;
  input_tokens: number | string | bigint | null;
  output_tokens: number | string | bigint | null;
  cost_usd: number | string | null;
}

/** Assistant messages, tokens and cost per participant (sums are null when nothing was recorded). */
export function listAssistantUsage(db: Kysely<DB>, scope: Scope): Promise<AssistantUsageRow[]> {
  let query = db
    .selectFrom('chat_messages as m')
    .innerJoin('chat_threads as t', 't.id', 'm.thread_id')
    .where('t.experiment_id', '=', scope.experimentId)
    .where('m.role', '=', 'assistant')
    .select((eb) => [
      't.user_id',
      eb.fn.countAll<number | string | bigint>().as('messages'),
      eb.fn.sum<number | string | bigint | null>('m.input_tokens').as('input_tokens'),
      eb.fn.sum<number | string | bigint | null>('m.output_tokens').as('output_tokens'),
      eb.fn.sum<number | string | null>('m.cost_usd').as('cost_usd'),
    ])
    .groupBy('t.user_id');
  if (scope.userIds) query = query.where('t.user_id', 'in', [...scope.userIds]);
  return query.execute();
}

/** Prolific ids of the given participants of an experiment, by user id. */
export async function listProlificPids(
  db: Kysely<DB>,
  experimentId: string,
  userIds: readonly string[],
): Promise<Map<string, string | null>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('assignments')
    .where('experiment_id', '=', experimentId)
    .where('user_id', 'in', [...userIds])
    .select(['user_id', 'prolific_pid'])
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.prolific_pid]));
}

export interface ThreadExportRow {
  id: string;
  experiment_id: string;
  user_id: string;
  condition: string;
  created_at: Date | string;
}

export function threadCursor(row: ThreadExportRow): { createdAt: Date | string; id: string } {
  return { createdAt: row.created_at, id: row.id };
}

/** One page of an experiment's chat threads, in the order they started. */
export function pageThreadsForExport(
  db: Kysely<DB>,
  experimentId: string,
  after: { createdAt: Date | string; id: string } | null,
  limit: number,
  includeTests = false,
): Promise<ThreadExportRow[]> {
  let query = db
    .selectFrom('chat_threads as t')
    .where('t.experiment_id', '=', experimentId)
    .select(['t.id', 't.experiment_id', 't.user_id', 't.condition', 't.created_at']);
  if (!includeTests) query = query.where('t.user_id', 'not in', testRunUsers(db, experimentId));
  if (after) {
    query = query.where(({ eb, refTuple, tuple }) =>
      eb(refTuple('t.created_at', 't.id'), '>', tuple(after.createdAt, after.id)),
    );
  }
  return query.orderBy('t.created_at').orderBy('t.id').limit(limit).execute();
}

/** Every message of the given threads, grouped by thread, each thread in conversation order. */
export function listMessagesOfThreads(db: Kysely<DB>, threadIds: readonly string[]): Promise<ChatMessageRow[]> {
  if (threadIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('chat_messages')
    .selectAll()
    .where('thread_id', 'in', [...threadIds])
    .orderBy('thread_id')
    .orderBy('position')
    .execute();
}

export type SurveyExportRow = SurveyResponseRow;

export interface SurveyCursor {
  userId: string;
  createdAt: Date | string;
  id: string;
}

export function surveyCursor(row: SurveyExportRow): SurveyCursor {
  return { userId: row.user_id, createdAt: row.created_at, id: row.id };
}

/** One page of an experiment's survey responses: grouped by participant, each in the order submitted. */
export function pageSurveysForExport(
  db: Kysely<DB>,
  experimentId: string,
  after: SurveyCursor | null,
  limit: number,
  includeTests = false,
): Promise<SurveyExportRow[]> {
  let query = db.selectFrom('survey_responses as s').where('s.experiment_id', '=', experimentId).selectAll('s');
  if (!includeTests) query = query.where('s.user_id', 'not in', testRunUsers(db, experimentId));
  if (after) {
    query = query.where(({ eb, refTuple, tuple }) =>
      eb(refTuple('s.user_id', 's.created_at', 's.id'), '>', tuple(after.userId, after.createdAt, after.id)),
    );
  }
  return query.orderBy('s.user_id').orderBy('s.created_at').orderBy('s.id').limit(limit).execute();
}
