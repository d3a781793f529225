import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../lib/deps.js';
import { recordAudit, type AuditRecord } from '../modules/audit/audit.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Writes an audit entry for the caller of this request (admins and analysts only). */
    audit(request: FastifyRequest, record: AuditRecord): Promise<void>;
  }
}

/**
 * The audit log's writer, used by `route()` for routes that declare `audit`, after a successful handler and
 * before the reply is sent. Participants' own actions are not admin actions and are not recorded.
 */
export function registerAudit(app: FastifyInstance, deps: AppDeps): void {
  app.decorate('audit', async (request: FastifyRequest, record: AuditRecord) => {
    const actor = request.auth;
    if (!actor || actor.role === 'participant') return;
    await recordAudit(deps, actor, record);
  });
}
