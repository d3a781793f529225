import type { Kysely } from 'kysely';
import { PATHWAY_CODE_KEY, PATHWAYS, type CodeKey, type CompletionCodes, type Pathway } from '@studychat/contracts';
import type { DB } from '../../db/schema.js';

// Completion codes, one row per experiment and pathway (docs/decisions/0046). The API names them by the
// spec's code keys (complete, exitnoqualms, exitceiling); PATHWAY_CODE_KEY maps one to the other.

const NO_CODES: CompletionCodes = { complete: null, exitnoqualms: null, exitceiling: null };

/** The codes of each experiment asked for (all null where none is set), in one query. */
export async function findCompletionCodes(
  db: Kysely<DB>,
  experimentIds: readonly string[],
): Promise<Map<string, CompletionCodes>> {
  const byExperiment = new Map(experimentIds.map((id) => [id, { ...NO_CODES }]));
  if (experimentIds.length === 0) return byExperiment;
  const rows = await db
    .selectFrom('completion_codes')
    .select(['experiment_id', 'pathway', 'code'])
    .where('experiment_id', 'in', experimentIds)
    .execute();
  for (const row of rows) {
    const codes = byExperiment.get(row.experiment_id);
    if (codes && isPathway(row.pathway)) codes[PATHWAY_CODE_KEY[row.pathway]] = row.code;
  }
  return byExperiment;
}

/** Whether the experiment exists and the code configured for one pathway (null when unset), in one statement. */
export async function findExperimentCode(
  db: Kysely<DB>,
  experimentId: string,
  pathway: Pathway,
): Promise<{ experimentExists: boolean; code: string | null }> {
  const row = await db
    .selectFrom('experiments as e')
    .select((eb) =>
      eb
        .selectFrom('completion_codes as c')
        .select('c.code')
        .whereRef('c.experiment_id', '=', 'e.id')
        .where('c.pathway', '=', pathway)
        .as('code'),
    )
    .where('e.id', '=', experimentId)
    .executeTakeFirst();
  return { experimentExists: row !== undefined, code: row?.code ?? null };
}

/** Sets (inserts or replaces) the code of each pathway given. */
export async function saveCompletionCodes(
  db: Kysely<DB>,
  experimentId: string,
  /** `pathway`: the built-in study's, or a flow's pathway key (issue 30). */
  codes: readonly { pathway: Pathway | (string & {}); code: string }[],
): Promise<void> {
  for (const { pathway, code } of codes) {
    await db
      .insertInto('completion_codes')
      .values({ experiment_id: experimentId, pathway, code })
      .onConflict((oc) => oc.columns(['experiment_id', 'pathway']).doUpdateSet({ code }))
      .execute();
  }
}

/** The pathway whose code a key names. */
export function pathwayOfCodeKey(key: CodeKey): Pathway {
  const pathway = PATHWAYS.find((p) => PATHWAY_CODE_KEY[p] === key);
  if (!pathway) throw new Error(`No pathway for code key ${key}`);
  return pathway;
}

function isPathway(value: string): value is Pathway {
  return (PATHWAYS as readonly string[]).includes(value);
}

/** Every code set for an experiment, by the pathway it is stored under (a flow's pathway keys, issue 30). */
export async function listExperimentCodes(db: Kysely<DB>, experimentId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('completion_codes')
    .select(['pathway', 'code'])
    .where('experiment_id', '=', experimentId)
    .execute();
  return new Map(rows.map((r) => [r.pathway, r.code]));
}
