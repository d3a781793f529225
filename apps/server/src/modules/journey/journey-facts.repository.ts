import { PostgresAdapter, sql, type CompiledQuery, type Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import { jsonArray, jsonObject, parsed } from '../../db/json-rows.js';
import type { AssignmentRow, ChatMessageRow, DB, SectionViewRow } from '../../db/schema.js';
import { activeSessionColumn, toActiveSession } from '../auth/session.repository.js';
import type { ActiveSession, SessionProbe } from '../auth/session-check.js';

// The participant's journey facts (assignment, survey responses, section records, chat thread and its
// messages) in one statement: the related rows come back as JSON arrays in columns of the assignment's row
// (json_agg on PostgreSQL, json_group_array on SQLite), read by the modules that own them (journey-records.ts).

export interface JourneyFactRows {
  assignment: AssignmentRow;
  surveys: { survey_type: string; responses: string }[];
  views: SectionViewRow[];
  thread: { id: string; closed_reason: string | null } | null;
  /**
   * The thread's messages in order, with what progress is counted from: the participant's text (`content` of
   * their own messages; an assistant reply's is left out, '', as progress never reads it).
   */
  messages: Pick<ChatMessageRow, 'role' | 'status' | 'content'>[];
  /** With a session probe: the caller's session as the same statement saw it (undefined: not active). */
  session?: ActiveSession;
  /** With a pathway: the experiment's completion code for it (null when not configured). */
  code?: string | null;
}

const VIEW_COLUMNS = [
  'id',
  'assignment_id',
  'user_id',
  'experiment_id',
  'condition',
  'section_index',
  'section_id',
  'min_seconds',
  'opened_at',
  'finished_at',
  'visible_seconds',
  'hidden_seconds',
  'study_version_id',
] as const satisfies readonly (keyof SectionViewRow)[];

type FactsRow = AssignmentRow &
  Record<'f_surveys' | 'f_views' | 'f_thread' | 'f_messages' | 'f_session' | 'f_code', unknown>;

function factsStatement(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
  probe: SessionProbe | null,
  pathway: string | null,
): CompiledQuery<FactsRow> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const survey = jsonObject(pg, 's', ['survey_type', 'responses']);
  const view = jsonObject(pg, 'v', VIEW_COLUMNS);
  const thread = jsonObject(pg, 't', ['id', 'closed_reason']);
  // Only the participant's own text: the replies are the long messages, and progress counts questions only.
  const message = sql`${sql.raw(pg ? 'json_build_object' : 'json_object')}('position', m.position, 'role', m.role,
    'status', m.status, 'content', case when m.role = 'user' then m.content else '' end)`;
  const session = probe ? sql`, ${activeSessionColumn(probe)} as f_session` : sql``;
  const code =
    pathway === null
      ? sql``
      : sql`, (select c.code from completion_codes c
        where c.experiment_id = a.experiment_id and c.pathway = ${pathway}) as f_code`;
  return sql<FactsRow>`
    select a.*,
      (select ${jsonArray(pg, survey)} from survey_responses s
        where s.user_id = a.user_id and s.experiment_id = a.experiment_id) as f_surveys,
      (select ${jsonArray(pg, view)} from section_views v where v.assignment_id = a.id) as f_views,
      (select ${thread} from chat_threads t
        where t.user_id = a.user_id and t.experiment_id = a.experiment_id) as f_thread,
      (select ${jsonArray(pg, message)} from chat_messages m join chat_threads t on t.id = m.thread_id
        where t.user_id = a.user_id and t.experiment_id = a.experiment_id) as f_messages${session}${code}
    from assignments a
    where a.user_id = ${userId} and a.experiment_id = ${experimentId}`.compile(db);
}

/**
 * The participant's facts in one experiment, one statement; undefined before they joined. Inside a
 * PostgreSQL transaction, lock the assignment first (lockJourneyFacts does) and read the facts after it: a
 * statement that waits for a row lock reads other tables as they were when it started. With a probe it also
 * reads the caller's session (a folded session check, modules/auth/session-check.ts).
 */
export async function readJourneyFacts(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
  probe: SessionProbe | null = null,
  /** Also read the experiment's completion code for this pathway (the code's release, journey.service.ts). */
  codeOf: string | null = null,
): Promise<JourneyFactRows | undefined> {
  // Built once per dialect and variant (db/compiled-once.ts): building it was about a third of a journey read's
  // CPU. Parameters in the statement's order: the session's and the pathway's (in the select list), then the
  // participant's.
  const name = `journeyFacts${probe ? 'WithSession' : ''}${codeOf === null ? '' : 'WithCode'}`;
  const params = [
    ...(probe ? [probe.sessionId, probe.now] : []),
    ...(codeOf === null ? [] : [codeOf]),
    userId,
    experimentId,
  ];
  const { rows } = await db.executeQuery(
    compiledOnce(
      db,
      name,
      (...standIns) => {
        const at = [...standIns];
        const session = probe ? { sessionId: at.shift() ?? '', now: at.shift() ?? '' } : null;
        const pathway = codeOf === null ? null : (at.shift() ?? '');
        return factsStatement(db, at[0] ?? '', at[1] ?? '', session, pathway);
      },
      params,
    ),
  );
  const row = rows[0];
  if (!row) return undefined;
  const { f_surveys, f_views, f_thread, f_messages, f_session, f_code, ...assignment } = row;
  const views = parsed<SectionViewRow[]>(f_views).sort((a, b) => a.section_index - b.section_index);
  const messages = parsed<(JourneyFactRows['messages'][number] & { position: number })[]>(f_messages).sort(
    (a, b) => a.position - b.position,
  );
  return {
    assignment: assignment as AssignmentRow,
    surveys: parsed(f_surveys),
    views,
    thread: f_thread === null ? null : parsed(f_thread),
    messages,
    ...(probe ? { session: toActiveSession(f_session) } : {}),
    ...(codeOf === null ? {} : { code: typeof f_code === 'string' ? f_code : null }),
  };
}

/**
 * The facts for a journey write, in its transaction, with the assignment's row locked on PostgreSQL first
 * (SQLite runs one transaction at a time). Undefined before the participant joined.
 */
export async function lockJourneyFacts(
  trx: Kysely<DB>,
  userId: string,
  experimentId: string,
  probe: SessionProbe | null = null,
): Promise<JourneyFactRows | undefined> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    // The assignment's row locked (its id only: the facts read after it returns the row). Built once.
    const lock = compiledOnce(
      trx,
      'journeyLock',
      (u, e) =>
        trx
          .selectFrom('assignments')
          .select('id')
          .where('user_id', '=', u)
          .where('experiment_id', '=', e)
          .forUpdate()
          .compile(),
      [userId, experimentId],
    );
    if ((await trx.executeQuery(lock)).rows.length === 0) return undefined;
  }
  return readJourneyFacts(trx, userId, experimentId, probe);
}
