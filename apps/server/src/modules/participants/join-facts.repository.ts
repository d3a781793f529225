import { sql, type Kysely } from 'kysely';
import { jsonArray, parsed } from '../../db/dialect.js';
import { hotRead } from '../../db/hot-read.js';
import type { DB } from '../../db/schema.js';
import { toBool } from '../../db/values.js';
import { withdrawnPidHash } from '../withdrawal/withdrawn-ids.js';

/** What joining an experiment checks before it writes, read in one statement. */
export interface JoinFacts {
  experimentExists: boolean;
  /** The experiment's state (docs/decisions/0077); null when it does not exist. */
  state: string | null;
  /** The experiment has quotas (then the join checks whether every cell is full). */
  hasQuotas: boolean;
  /** The login's metadata (a generated study login names its experiment); undefined when there is no such user. */
  user: { metadata: string | null } | undefined;
  /** The Prolific ids the login has used in any experiment. */
  prolificIds: string[];
  /** The Prolific id was withdrawn from this experiment. */
  withdrawn: boolean;
}

interface JoinFactsRow {
  experiment: boolean | number;
  state: string | null;
  quotas: boolean | number;
  user_exists: boolean | number;
  metadata: string | null;
  pids: unknown;
  withdrawn: boolean | number;
}

const joinFacts = hotRead('joinFacts', ['experimentId', 'userId', 'pidHash'], (db, p) => {
  const pids = jsonArray(db, sql`prolific_pid`);
  return sql<JoinFactsRow>`select
      exists (select 1 from experiments where id = ${p.experimentId}) as experiment,
      (select state from experiments where id = ${p.experimentId}) as state,
      exists (select 1 from experiment_quotas where experiment_id = ${p.experimentId}) as quotas,
      exists (select 1 from users where id = ${p.userId}) as user_exists,
      (select metadata from users where id = ${p.userId}) as metadata,
      (select ${pids} from assignments where user_id = ${p.userId} and prolific_pid is not null) as pids,
      exists (select 1 from withdrawn_prolific_ids
        where experiment_id = ${p.experimentId} and pid_sha256 = ${p.pidHash}) as withdrawn`.compile(db);
});

/** The experiment's existence and state, the login, its Prolific ids and the id's withdrawal, in one statement. */
export async function readJoinFacts(
  db: Kysely<DB>,
  input: { userId: string; experimentId: string; prolificPid: string },
): Promise<JoinFacts> {
  const [row] = await joinFacts(db, {
    experimentId: input.experimentId,
    userId: input.userId,
    pidHash: withdrawnPidHash(input.experimentId, input.prolificPid),
  });
  if (!row) throw new Error('readJoinFacts: a select with no FROM returned no row');
  return {
    experimentExists: toBool(row.experiment),
    state: row.state,
    hasQuotas: toBool(row.quotas),
    user: toBool(row.user_exists) ? { metadata: row.metadata } : undefined,
    prolificIds: parsed<string[]>(row.pids),
    withdrawn: toBool(row.withdrawn),
  };
}
