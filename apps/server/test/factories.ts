import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type {
  AssignmentsTable,
  ChatMessagesTable,
  ChatThreadsTable,
  DB,
  ExperimentsTable,
  SectionExposuresTable,
  SectionViewsTable,
  SurveyResponsesTable,
  UsersTable,
} from '../src/db/schema.js';

// Rows for tests and the bench, inserted straight into the tables: the admin read models and exports can be
// tested without going through the participant and chat services. Every builder takes overrides.

const BASE_TIME = Date.parse('2026-11-20T09:00:00.000Z');

/** An ISO timestamp `minutes` after a fixed base time, so tests can order rows by hand. */
export function at(minutes: number): string {
  return new Date(BASE_TIME + minutes * 60_000).toISOString();
}

export type NewUserRow = Insertable<UsersTable>;
export type NewExperimentRow = Insertable<ExperimentsTable>;
export type NewAssignmentRow = Insertable<AssignmentsTable>;
export type NewSurveyRow = Insertable<SurveyResponsesTable>;
export type NewExposureRow = Insertable<SectionExposuresTable>;
export type NewThreadRow = Insertable<ChatThreadsTable>;
export type NewSectionViewRow = Insertable<SectionViewsTable>;
export type NewMessageRow = Insertable<ChatMessagesTable>;

export function buildUser(overrides: Partial<NewUserRow> = {}): NewUserRow {
  const id = overrides.id ?? randomUUID();
  return {
    id,
    email: `p-${id}@study.test`,
    // Not a real hash: factory users never log in (use createAndLogin for that).
    password_hash: 'not-a-hash',
    is_admin: false,
    metadata: null,
    created_at: at(0),
    updated_at: at(0),
    last_login_at: null,
    ...overrides,
  };
}

export function buildExperiment(overrides: Partial<NewExperimentRow> = {}): NewExperimentRow {
  return {
    id: randomUUID(),
    name: 'Factory experiment',
    description: null,
    created_at: at(0),
    updated_at: at(0),
    ...overrides,
  };
}

export function buildAssignment(
  ref: { userId: string; experimentId: string },
  overrides: Partial<NewAssignmentRow> = {},
): NewAssignmentRow {
  return {
    id: randomUUID(),
    user_id: ref.userId,
    experiment_id: ref.experimentId,
    prolific_pid: null,
    study_id: null,
    session_id: null,
    assigned_condition: null,
    stratum: null,
    condition_assigned_at: null,
    consent_given: false,
    consent_timestamp: null,
    intervention_completed_timestamp: null,
    completion_pathway: null,
    completion_code: null,
    completed_at: null,
    created_at: at(1),
    updated_at: at(1),
    ...overrides,
  };
}

export function buildSurvey(
  ref: { userId: string; experimentId: string },
  surveyType: 'entry' | 'baseline' | 'pre' | 'post',
  responses: Record<string, unknown>,
  overrides: Partial<NewSurveyRow> = {},
): NewSurveyRow {
  return {
    id: randomUUID(),
    user_id: ref.userId,
    experiment_id: ref.experimentId,
    prolific_pid: null,
    survey_type: surveyType,
    responses: JSON.stringify(responses),
    created_at: at(2),
    ...overrides,
  };
}

export function buildExposure(
  ref: { userId: string; experimentId: string },
  sectionIndex: number,
  overrides: Partial<NewExposureRow> = {},
): NewExposureRow {
  return {
    id: randomUUID(),
    user_id: ref.userId,
    experiment_id: ref.experimentId,
    condition: 'mmr',
    section_index: sectionIndex,
    section_id: `section-${sectionIndex}`,
    min_seconds: 15,
    seconds_on_screen: 20,
    completed_at: at(3 + sectionIndex),
    ...overrides,
  };
}

/** A section the server opened and saw finished after `seconds` (its minimum by default). */
export function buildSectionView(
  assignment: Pick<NewAssignmentRow, 'id' | 'user_id' | 'experiment_id'>,
  sectionIndex: number,
  overrides: Partial<NewSectionViewRow> & { seconds?: number } = {},
): NewSectionViewRow {
  const { seconds, ...rest } = overrides;
  const minSeconds = rest.min_seconds ?? 15;
  const opened = Date.parse(at(5 + sectionIndex));
  return {
    id: randomUUID(),
    assignment_id: String(assignment.id),
    user_id: assignment.user_id,
    experiment_id: assignment.experiment_id,
    condition: 'mmr',
    section_index: sectionIndex,
    section_id: `section-${sectionIndex}`,
    min_seconds: minSeconds,
    opened_at: new Date(opened).toISOString(),
    finished_at: new Date(opened + (seconds ?? minSeconds) * 1000).toISOString(),
    visible_seconds: seconds ?? minSeconds,
    hidden_seconds: 0,
    ...rest,
  };
}

/**
 * Rows that put an assigned participant at the chat step, as the journey's rules read them: entry
 * 'questions', a baseline of 4, the pre-survey, and each of the condition's sections read in time
 * (the assignment itself must carry consent and the condition).
 */
export function readyForChatRows(
  assignment: Pick<NewAssignmentRow, 'id' | 'user_id' | 'experiment_id'>,
  condition: string,
  minSeconds: readonly number[],
): { surveys: NewSurveyRow[]; views: NewSectionViewRow[] } {
  const ref = { userId: assignment.user_id, experimentId: assignment.experiment_id };
  return {
    surveys: [
      buildSurvey(ref, 'entry', { choice: 'questions' }),
      buildSurvey(ref, 'baseline', { vaccination_intention: '4' }),
      buildSurvey(ref, 'pre', { age: '25-34', sex: 'female', political_leaning: 'moderate' }),
    ],
    views: minSeconds.map((min, i) => buildSectionView(assignment, i, { condition, min_seconds: min })),
  };
}

export function buildThread(
  ref: { userId: string; experimentId: string },
  overrides: Partial<NewThreadRow> = {},
): NewThreadRow {
  return {
    id: randomUUID(),
    user_id: ref.userId,
    experiment_id: ref.experimentId,
    condition: 'mmr',
    title: null,
    reply_lock_id: null,
    reply_lock_until: null,
    created_at: at(10),
    updated_at: at(10),
    ...overrides,
  };
}

export function buildMessage(
  threadId: string,
  position: number,
  role: 'user' | 'assistant',
  content: string,
  overrides: Partial<NewMessageRow> = {},
): NewMessageRow {
  const assistant = role === 'assistant';
  return {
    id: randomUUID(),
    thread_id: threadId,
    position,
    role,
    content,
    is_initial: assistant && position === 0,
    status: 'complete',
    error_message: null,
    model_used: assistant ? 'scripted-offline' : null,
    input_tokens: assistant ? 100 : null,
    output_tokens: assistant ? 50 : null,
    cost_usd: assistant ? 0.001 : null,
    first_token_ms: assistant ? 120 : null,
    total_ms: assistant ? 900 : null,
    stop_reason: assistant ? 'end_turn' : null,
    thinking_log: null,
    created_at: at(10 + position),
    ...overrides,
  };
}

type TableName = keyof DB;

/** Multi-row inserts in chunks that stay under both databases' bound-parameter limits. */
export async function insertMany<T extends TableName>(
  db: Kysely<DB>,
  table: T,
  rows: Insertable<DB[T]>[],
  chunkSize = 200,
): Promise<void> {
  for (let i = 0; i < rows.length; i += chunkSize) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + chunkSize) as never)
      .execute();
  }
}

export async function insertUserRow(db: Kysely<DB>, overrides: Partial<NewUserRow> = {}): Promise<NewUserRow> {
  const row = buildUser(overrides);
  await db.insertInto('users').values(row).execute();
  return row;
}

export async function insertExperimentRow(
  db: Kysely<DB>,
  overrides: Partial<NewExperimentRow> = {},
): Promise<NewExperimentRow> {
  const row = buildExperiment(overrides);
  await db.insertInto('experiments').values(row).execute();
  await db
    .insertInto('completion_codes')
    .values(Object.entries(FACTORY_CODES).map(([pathway, code]) => ({ experiment_id: String(row.id), pathway, code })))
    .execute();
  return row;
}

/** The completion codes insertExperimentRow sets, by pathway. */
export const FACTORY_CODES = { complete: 'C-COMPLETE', confirm: 'C-NOQUALMS', ceiling: 'C-CEILING' } as const;

/** What one participant did in a study: each part is optional, so tests can leave gaps. */
export interface ParticipantSpec {
  user?: Partial<NewUserRow>;
  assignment?: Partial<NewAssignmentRow>;
  entry?: 'confirm' | 'questions';
  /** Baseline intention 1-7 (stored as a string, as the survey sends it). */
  baseline?: number;
  pre?: { age: string; sex: string; political_leaning: string };
  post?: number;
  /** Seconds on screen per section index (0-based); min_seconds comes from `minSeconds` or 15. */
  exposures?: { seconds: number; minSeconds?: number }[];
  /** Server-timed sections per index (0-based): seconds from opening to finish; min_seconds from `minSeconds` or 15. */
  views?: { seconds: number; minSeconds?: number }[];
  /** Chat messages in order; position 0 is usually the initial assistant message. */
  chat?: { role: 'user' | 'assistant'; content: string; overrides?: Partial<NewMessageRow> }[];
}

export interface SeededParticipant {
  user: NewUserRow;
  assignment: NewAssignmentRow;
  threadId: string | null;
  messageIds: string[];
}

/** All rows for one participant, ready for `insertParticipantRows` or batching across many participants. */
export function buildParticipantRows(experimentId: string, spec: ParticipantSpec = {}) {
  const user = buildUser(spec.user);
  const ref = { userId: String(user.id), experimentId };
  const condition = spec.assignment?.assigned_condition ?? null;
  const assignment = buildAssignment(ref, spec.assignment);
  const surveys: NewSurveyRow[] = [];
  if (spec.entry) surveys.push(buildSurvey(ref, 'entry', { choice: spec.entry }, { created_at: at(2) }));
  if (spec.baseline !== undefined) {
    surveys.push(buildSurvey(ref, 'baseline', { vaccination_intention: String(spec.baseline) }, { created_at: at(3) }));
  }
  if (spec.pre) surveys.push(buildSurvey(ref, 'pre', spec.pre, { created_at: at(4) }));
  if (spec.post !== undefined)
    surveys.push(buildSurvey(ref, 'post', { post_intent: spec.post }, { created_at: at(30) }));
  const exposures = (spec.exposures ?? []).map((e, index) =>
    buildExposure(ref, index, {
      condition: condition ?? 'mmr',
      seconds_on_screen: e.seconds,
      min_seconds: e.minSeconds ?? 15,
    }),
  );
  const views = (spec.views ?? []).map((v, index) =>
    buildSectionView(assignment, index, {
      condition: condition ?? 'mmr',
      seconds: v.seconds,
      min_seconds: v.minSeconds ?? 15,
    }),
  );
  const thread = spec.chat ? buildThread(ref, { condition: condition ?? 'mmr' }) : null;
  const messages = thread
    ? (spec.chat ?? []).map((m, position) => buildMessage(thread.id, position, m.role, m.content, m.overrides))
    : [];
  return { user, assignment, surveys, exposures, views, thread, messages };
}

export type ParticipantRows = ReturnType<typeof buildParticipantRows>;

/** Inserts many participants' rows table by table with multi-row inserts (quick for thousands). */
export async function insertParticipantRows(db: Kysely<DB>, all: ParticipantRows[]): Promise<void> {
  await insertMany(
    db,
    'users',
    all.map((p) => p.user),
  );
  await insertMany(
    db,
    'assignments',
    all.map((p) => p.assignment),
  );
  await insertMany(
    db,
    'survey_responses',
    all.flatMap((p) => p.surveys),
  );
  await insertMany(
    db,
    'section_exposures',
    all.flatMap((p) => p.exposures),
  );
  await insertMany(
    db,
    'section_views',
    all.flatMap((p) => p.views),
  );
  await insertMany(
    db,
    'chat_threads',
    all.flatMap((p) => (p.thread ? [p.thread] : [])),
  );
  await insertMany(
    db,
    'chat_messages',
    all.flatMap((p) => p.messages),
  );
}

/** Seeds one participant of an experiment with whatever parts the spec names. */
export async function seedParticipant(
  db: Kysely<DB>,
  experimentId: string,
  spec: ParticipantSpec = {},
): Promise<SeededParticipant> {
  const rows = buildParticipantRows(experimentId, spec);
  await insertParticipantRows(db, [rows]);
  return {
    user: rows.user,
    assignment: rows.assignment,
    threadId: rows.thread ? String(rows.thread.id) : null,
    messageIds: rows.messages.map((m) => String(m.id)),
  };
}

/** Shares an experiment with a staff account (docs/decisions/0087): one experiment_members row. */
export async function insertMemberRow(
  db: Kysely<DB>,
  experimentId: string,
  userId: string,
  role: 'owner' | 'editor' | 'viewer',
): Promise<void> {
  await db
    .insertInto('experiment_members')
    .values({
      experiment_id: experimentId,
      user_id: userId,
      role,
      added_by: null,
      created_at: '2026-01-01T00:00:00.000Z',
    })
    .execute();
}
