import type { Insertable, Kysely, Updateable } from 'kysely';
import type { CodeKey } from '@studychat/contracts';
import type { DB, ExperimentRow, ExperimentsTable } from '../../db/schema.js';

export function listExperimentRows(db: Kysely<DB>): Promise<ExperimentRow[]> {
  return db.selectFrom('experiments').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
}

export function findExperimentById(db: Kysely<DB>, id: string): Promise<ExperimentRow | undefined> {
  return db.selectFrom('experiments').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertExperiment(db: Kysely<DB>, row: Insertable<ExperimentsTable>): Promise<void> {
  await db.insertInto('experiments').values(row).execute();
}

/** Returns false when no experiment has this id. */
export async function updateExperimentRow(
  db: Kysely<DB>,
  id: string,
  changes: Updateable<ExperimentsTable>,
): Promise<boolean> {
  const result = await db.updateTable('experiments').set(changes).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The column that stores each completion code. */
export const CODE_COLUMN = {
  complete: 'code_complete',
  exitnoqualms: 'code_exitnoqualms',
  exitceiling: 'code_exitceiling',
} as const satisfies Record<CodeKey, keyof ExperimentsTable>;

/** The configured code for a key, or null when unset. */
export function codeOf(row: ExperimentRow, key: CodeKey): string | null {
  return row[CODE_COLUMN[key]];
}
