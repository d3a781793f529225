import type { Insertable, Kysely } from 'kysely';
import type { AuditLogTable, DB } from '../../db/schema.js';
import { experimentHidden, participantHidden } from '../members/visibility.js';

export async function insertAuditEntry(db: Kysely<DB>, entry: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(entry).execute();
}

/**
 * Newest first, `limit` rows after the (created_at, id) cursor, leaving out the entries about a `hidden`
 * experiment (the members-only ones the reader is not on) or about a participant tied only to those.
 */
export function listAuditRows(
  db: Kysely<DB>,
  limit: number,
  after: { createdAt: string; id: string } | undefined,
  hidden: readonly string[],
) {
  let query = db.selectFrom('audit_log').selectAll();
  if (hidden.length > 0) {
    query = query.where(({ and, eb, not, or }) =>
      not(
        or([
          and([eb('target_type', '=', 'experiment'), experimentHidden(hidden, 'audit_log.target_id')]),
          and([eb('target_type', '=', 'user'), participantHidden(hidden, 'audit_log.target_id')]),
        ]),
      ),
    );
  }
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
