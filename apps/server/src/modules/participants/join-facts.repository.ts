import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import { parsed } from '../../db/json-rows.js';
import type { DB } from '../../db/schema.js';
import { toBool } from '../../db/values.js';
import type { ActiveSession, SessionProbe } from '../auth/session-check.js';
import { activeSessionColumn, toActiveSession } from '../auth/session.repository.js';
import { withdrawnPidHash } from '../withdrawal/withdrawn-ids.js';

/** What joining an experiment checks before it writes, read in one statement. */
export interface JoinFacts {
  experimentExists: boolean;
  /** The login's metadata (a generated study login names its experiment); undefined when there is no such user. */
  user: { metadata: string | null } | undefined;
  /** The Prolific ids the login has used in any experiment. */
  prolificIds: string[];
  /** The Prolific id was withdrawn from this experiment. */
  withdrawn: boolean;
  /** With a session probe: the caller's session as the same statement saw it (undefined: not active). */
  session?: ActiveSession | undefined;
}

interface JoinFactsRow {
  experiment: boolean | number;
  user_exists: boolean | number;
  metadata: string | null;
  pids: unknown;
  withdrawn: boolean | number;
  f_session?: unknown;
}

/**
 * The experiment's existence, the login, its Prolific ids and the id's withdrawal, in one statement (four
 * before, issue 16). With a probe it also reads the caller's session (a folded session check, docs/decisions
 * 0058). Built once per dialect and variant (db/compiled-once.ts).
 */
export async function readJoinFacts(
  db: Kysely<DB>,
  input: { userId: string; experimentId: string; prolificPid: string },
  probe: SessionProbe | null = null,
): Promise<JoinFacts> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const pids = pg ? sql`coalesce(json_agg(prolific_pid), '[]'::json)` : sql`json_group_array(prolific_pid)`;
  const statement = (
    experimentId: unknown,
    userId: unknown,
    ofUser: unknown,
    pidsOfUser: unknown,
    withdrawnFrom: unknown,
    pidHash: unknown,
    session: SessionProbe | null,
  ) =>
    sql<JoinFactsRow>`select
      exists (select 1 from experiments where id = ${experimentId}) as experiment,
      exists (select 1 from users where id = ${userId}) as user_exists,
      (select metadata from users where id = ${ofUser}) as metadata,
      (select ${pids} from assignments where user_id = ${pidsOfUser} and prolific_pid is not null) as pids,
      exists (select 1 from withdrawn_prolific_ids
        where experiment_id = ${withdrawnFrom} and pid_sha256 = ${pidHash}) as withdrawn${
          session ? sql`, ${activeSessionColumn(session)} as f_session` : sql``
        }`.compile(db);
  const facts = [
    input.experimentId,
    input.userId,
    input.userId,
    input.userId,
    input.experimentId,
    withdrawnPidHash(input.experimentId, input.prolificPid),
  ];
  const { rows } = await db.executeQuery(
    probe
      ? compiledOnce<JoinFactsRow>(
          db,
          'joinFactsWithSession',
          (e, u, o, p, w, h, sessionId, now) => statement(e, u, o, p, w, h, { sessionId, now } as SessionProbe),
          [...facts, probe.sessionId, probe.now],
        )
      : compiledOnce<JoinFactsRow>(db, 'joinFacts', (e, u, o, p, w, h) => statement(e, u, o, p, w, h, null), facts),
  );
  const row = rows[0];
  if (!row) throw new Error('readJoinFacts: a select with no FROM returned no row');
  return {
    experimentExists: toBool(row.experiment),
    user: toBool(row.user_exists) ? { metadata: row.metadata } : undefined,
    prolificIds: parsed<string[]>(row.pids),
    withdrawn: toBool(row.withdrawn),
    ...(probe ? { session: toActiveSession(row.f_session) } : {}),
  };
}
