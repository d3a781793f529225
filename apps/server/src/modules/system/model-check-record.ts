import type { ModelCheckReply } from '@studychat/contracts';
import type { Database } from '../../db/database.js';
import type { AppDeps } from '../../lib/deps.js';

// The last model check an admin ran in this process (docs/decisions/0090-prolific-launch.md): the Prolific launch
// checklist asks that the configured model was checked before publishing. The check is a paid call, so the
// checklist reads what the last one said instead of calling the model itself; a restart forgets it (run it again).

export interface ModelCheckRecord {
  ok: boolean;
  provider: string;
  model: string;
  at: string;
}

const records = new WeakMap<Database, ModelCheckRecord>();

export function recordModelCheck(deps: AppDeps, reply: ModelCheckReply): ModelCheckReply {
  records.set(deps.database, {
    ok: reply.ok,
    provider: reply.provider,
    model: reply.model,
    at: deps.clock().toISOString(),
  });
  return reply;
}

export function lastModelCheck(deps: AppDeps): ModelCheckRecord | null {
  return records.get(deps.database) ?? null;
}
