import type { Insertable, Kysely, Updateable } from 'kysely';
import type { ChatLimitOverrides } from '@studychat/contracts';
import type { DB, ExperimentRow, ExperimentsTable } from '../../db/schema.js';
import { CHAT_LIMIT_COLUMN, toChatLimitOverrides } from './chat-limit-columns.js';

/** Newest first; archived experiments only when asked for. */
export function listExperimentRows(db: Kysely<DB>, includeArchived = true): Promise<ExperimentRow[]> {
  let query = db.selectFrom('experiments').selectAll();
  if (!includeArchived) query = query.where('state', '<>', 'archived');
  return query.orderBy('created_at', 'desc').orderBy('id').execute();
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

/** The experiment's own chat limits (nulls where the default applies), or undefined for an unknown id. */
export async function findChatLimitOverrides(db: Kysely<DB>, id: string): Promise<ChatLimitOverrides | undefined> {
  const row = await db
    .selectFrom('experiments')
    .select(Object.values(CHAT_LIMIT_COLUMN))
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toChatLimitOverrides(row);
}

/** Every experiment with its own chat budget (null: the default applies), for the budget warnings on the admin pages. */
export function listExperimentBudgets(
  db: Kysely<DB>,
): Promise<{ id: string; name: string; chat_budget_usd: number | string | null; chat_admit_percent: number | null }[]> {
  return db
    .selectFrom('experiments')
    .select(['id', 'name', 'chat_budget_usd', 'chat_admit_percent'])
    .orderBy('created_at')
    .execute();
}
