import { sql, type Kysely, type Transaction } from 'kysely';
import { jsonArray, jsonObject, jsonObjectOf, lockForWrite, parsed } from '../../db/dialect.js';
import { hotRead } from '../../db/hot-read.js';
import type { AssignmentRow, ChatMessageRow, DB, SectionViewRow, StepRecordRow } from '../../db/schema.js';

// The participant's journey facts (assignment, survey responses, section records, chat thread and its
// messages) in one statement: the related rows come back as JSON arrays in columns of the assignment's row
// (json_agg on PostgreSQL, json_group_array on SQLite), read by the modules that own them (journey-records.ts).

export interface JourneyFactRows {
  assignment: AssignmentRow;
  surveys: { survey_type: string; responses: string }[];
  views: SectionViewRow[];
  thread: { id: string; closed_reason: string | null; created_at: string } | null;
  /**
   * The thread's messages in order, with what progress is counted from: the participant's text (`content` of
   * their own messages; an assistant reply's is left out, '', as progress never reads it).
   */
  messages: Pick<ChatMessageRow, 'role' | 'status' | 'content'>[];
  /** With a pathway: the experiment's completion code for it (null when not configured). */
  code?: string | null;
  /** A flow's step records (issue 30; none for a study in the built-in shape). */
  steps: Pick<StepRecordRow, 'step_id' | 'step_type' | 'data' | 'done_at' | 'created_at'>[];
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
  Record<'f_surveys' | 'f_views' | 'f_thread' | 'f_messages' | 'f_steps' | 'f_code', unknown>;

function factsStatement(db: Kysely<DB>, p: { userId: string; experimentId: string; pathway?: string }) {
  const survey = jsonObject(db, 's', ['survey_type', 'responses']);
  const view = jsonObject(db, 'v', VIEW_COLUMNS);
  const thread = jsonObject(db, 't', ['id', 'closed_reason', 'created_at']);
  const step = jsonObject(db, 'r', ['step_id', 'step_type', 'data', 'done_at', 'created_at']);
  // Only the participant's own text: the replies are the long messages, and progress counts questions only.
  const message = jsonObjectOf(db, {
    position: sql`m.position`,
    role: sql`m.role`,
    status: sql`m.status`,
    content: sql`case when m.role = 'user' then m.content else '' end`,
  });
  const code =
    p.pathway === undefined
      ? sql``
      : sql`, (select c.code from completion_codes c
        where c.experiment_id = a.experiment_id and c.pathway = ${p.pathway}) as f_code`;
  return sql<FactsRow>`
    select a.*,
      (select ${jsonArray(db, survey)} from survey_responses s
        where s.user_id = a.user_id and s.experiment_id = a.experiment_id) as f_surveys,
      (select ${jsonArray(db, view)} from section_views v where v.assignment_id = a.id) as f_views,
      (select ${thread} from chat_threads t
        where t.user_id = a.user_id and t.experiment_id = a.experiment_id) as f_thread,
      (select ${jsonArray(db, message)} from chat_messages m join chat_threads t on t.id = m.thread_id
        where t.user_id = a.user_id and t.experiment_id = a.experiment_id) as f_messages,
      (select ${jsonArray(db, step)} from step_records r where r.assignment_id = a.id) as f_steps${code}
    from assignments a
    where a.user_id = ${p.userId} and a.experiment_id = ${p.experimentId}`.compile(db);
}

const facts = hotRead('journeyFacts', ['userId', 'experimentId'], factsStatement);
const factsWithCode = hotRead('journeyFactsWithCode', ['userId', 'experimentId', 'pathway'], factsStatement);

/**
 * The participant's facts in one experiment, one statement; undefined before they joined. Inside a
 * PostgreSQL transaction, lock the assignment first (lockJourneyFacts does) and read the facts after it: a
 * statement that waits for a row lock reads other tables as they were when it started.
 */
export async function readJourneyFacts(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
  /** Also read the experiment's completion code for this pathway (the code's release, journey.service.ts). */
  codeOf?: string,
): Promise<JourneyFactRows | undefined> {
  const [row] =
    codeOf === undefined
      ? await facts(db, { userId, experimentId })
      : await factsWithCode(db, { userId, experimentId, pathway: codeOf });
  if (!row) return undefined;
  const { f_surveys, f_views, f_thread, f_messages, f_steps, f_code, ...assignment } = row;
  const views = parsed<SectionViewRow[]>(f_views).sort((a, b) => a.section_index - b.section_index);
  const messages = parsed<(JourneyFactRows['messages'][number] & { position: number })[]>(f_messages).sort(
    (a, b) => a.position - b.position,
  );
  return {
    assignment,
    surveys: parsed(f_surveys),
    views,
    thread: f_thread === null ? null : parsed(f_thread),
    messages,
    steps: parsed(f_steps),
    ...(codeOf === undefined ? {} : { code: typeof f_code === 'string' ? f_code : null }),
  };
}

/**
 * The facts for a journey write, in its transaction, with the assignment's row locked first (db/dialect.ts
 * lockForWrite). Undefined before the participant joined.
 */
export async function lockJourneyFacts(
  trx: Transaction<DB>,
  userId: string,
  experimentId: string,
): Promise<JourneyFactRows | undefined> {
  await lockForWrite(
    trx,
    trx.selectFrom('assignments').select('id').where('user_id', '=', userId).where('experiment_id', '=', experimentId),
  );
  return readJourneyFacts(trx, userId, experimentId);
}
