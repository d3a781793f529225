import type { AuditEntry } from '@studychat/contracts';
import type { Selectable } from 'kysely';
import type { AuditLogTable } from '../../db/schema.js';
import { parseJsonObject, toIso } from '../../db/values.js';

export function toAuditEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    actor_id: row.actor_id,
    actor_email: row.actor_email,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    details: parseJsonObject(row.details),
    created_at: toIso(row.created_at),
  };
}
