import type { AuditPage } from '@studychat/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { badRequest } from '../../lib/errors.js';
import { toIso } from '../../db/values.js';
import { toAuditEntry } from './audit.mapper.js';
import { insertAuditEntry, listAuditRows } from './audit.repository.js';

/** What an admin-area action records: what it did, to what, and anything that says more. */
export interface AuditRecord {
  action: string;
  target?: { type: string; id: string } | undefined;
  details?: Record<string, unknown> | undefined;
}

/**
 * Who, when, what: one row per admin action (never the values of passwords or codes). `db` is a transaction
 * when the entry must stand or fall with the action's own writes.
 */
export async function recordAudit(
  deps: AppDeps,
  actor: { userId: string; email: string },
  record: AuditRecord,
  db: Kysely<DB> = deps.database.db,
): Promise<void> {
  await insertAuditEntry(db, {
    id: deps.newId(),
    actor_id: actor.userId,
    actor_email: actor.email,
    action: record.action,
    target_type: record.target?.type ?? null,
    target_id: record.target?.id ?? null,
    details: record.details ? JSON.stringify(record.details) : null,
    created_at: deps.clock().toISOString(),
  });
}

function parseCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = cursor.split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt))) throw badRequest('cursor is not one this list gave');
  return { createdAt: new Date(createdAt).toISOString(), id };
}

/**
 * One page of the audit log, newest first; `next` continues after its last entry. `hidden` is the members-only
 * experiments the reader is not on: their entries, and those about their participants, are not in the log it reads.
 */
export async function listAudit(
  deps: AppDeps,
  query: { cursor?: string | undefined; limit: number },
  hidden: readonly string[],
): Promise<AuditPage> {
  const rows = await listAuditRows(
    deps.database.db,
    query.limit + 1,
    query.cursor ? parseCursor(query.cursor) : undefined,
    hidden,
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    entries: page.map(toAuditEntry),
    next: rows.length > query.limit && last ? `${toIso(last.created_at)}|${last.id}` : null,
  };
}
