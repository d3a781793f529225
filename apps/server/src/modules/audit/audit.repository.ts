import type { Insertable, Kysely } from 'kysely';
import type { AuditLogTable, DB } from '../../db/schema.js';

export async function insertAuditEntry(db: Kysely<DB>, entry: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(entry).execute();
}

/** Newest first, `limit` rows after the (created_at, id) cursor. */
export function listAuditRows(db: Kysely<DB>, limit: number, after?: { createdAt: string; id: string }) {
  let query = db.selectFrom('audit_log').selectAll();
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
