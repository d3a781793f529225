import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams, monitorRoutes, providerHealthRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { openEventStream } from '../../lib/event-stream.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { MonitorHub } from './monitor.stream.js';
import { getMonitor, updateSettings } from './monitor.service.js';
import { getProviderHealth } from './provider-health.service.js';
import { findMonitorSettings, latestSeq } from './monitor.repository.js';
import { SnapshotCache } from './snapshot-cache.js';
import { notFound } from '../../lib/errors.js';

/**
 * Default timing: poll the log every second; end a stream after 5 minutes (the browser reconnects); share a
 * snapshot between the admins watching for up to 2 s while the log has not moved.
 */
export const MONITOR_STREAM_DEFAULTS = { pollMs: 1000, maxMs: 5 * 60_000, keepAliveMs: 15_000, snapshotMs: 2000 };

/** The live study monitor: snapshot, settings, event stream (staff), and the participant's heartbeat. */
export function registerMonitorRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps } = ctx;
  const timing = { ...MONITOR_STREAM_DEFAULTS, ...ctx.config.monitorStream };
  const staff = { guards: [ctx.guards.requireStaff] };
  const hub = new MonitorHub(deps.database.db, { pollMs: timing.pollMs }, deps.clock);
  app.addHook('onClose', async () => hub.close());
  const snapshots = new SnapshotCache(timing.snapshotMs, deps.clock);

  route(app, monitorRoutes.get, staff, (request) => {
    const includeTests = request.query.include_tests === 'true';
    // The list with test runs is another snapshot: shared under its own key.
    return snapshots.get(
      includeTests ? `${request.params.id}+tests` : request.params.id,
      () => latestSeq(deps.database.db, request.params.id),
      () => getMonitor(deps, request.params.id, { includeTests }),
    );
  });
  route(
    app,
    monitorRoutes.updateSettings,
    {
      guards: [ctx.guards.requireAdmin],
      audit: {
        action: 'experiment.monitor_settings',
        target: (request) => ({ type: 'experiment', id: request.params.id }),
        details: (request) => ({ ...request.body }),
      },
    },
    (request) => updateSettings(deps, request.params.id, request.body),
  );
  // The model provider's errors, waits and fallbacks over recent periods (docs/decisions/0076).
  route(app, providerHealthRoutes.get, staff, (request) => getProviderHealth(deps, request.params.id));
  // Any authenticated participant call already counts as activity (the auth guard); this one only says so.
  route(app, monitorRoutes.heartbeat, { guards: [ctx.guards.requireUser] }, () => Promise.resolve({ ok: true }));

  // An event stream has no JSON reply schema: registered directly, like the chat's streams.
  const def = monitorRoutes.stream;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.path,
    schema: { params: IdParams },
    onRequest: staff.guards,
    handler: async (request, reply) => {
      const experimentId = request.params.id;
      if (!(await findMonitorSettings(deps.database.db, experimentId))) throw notFound('Experiment not found');
      const stream = openEventStream(reply, { heartbeatMs: timing.keepAliveMs });
      // Set once subscribed (the connection may close before that).
      const subscription: { cancel?: () => void } = {};
      const end = () => stream.end('data: [DONE]\n\n');
      // A bounded lifetime (the browser reconnects); a revoked session or a lost role ends it at the next poll.
      const lifetime = setTimeout(end, timing.maxMs);
      lifetime.unref();
      stream.onClose(() => {
        clearTimeout(lifetime);
        subscription.cancel?.();
      });
      let unsubscribe: () => void;
      try {
        unsubscribe = await hub.subscribe(experimentId, {
          tick: (tick) => stream.write(`data: ${JSON.stringify(tick)}\n\n`),
          sessionId: caller(request).sessionId,
          end,
        });
      } catch (error) {
        // The database went away since the check above: the stream ends at once and the browser reconnects.
        request.log.warn({ err: error, experimentId }, 'monitor stream could not start');
        end();
        return;
      }
      // Closed while subscribing: nothing else will unsubscribe.
      if (!stream.open) unsubscribe();
      else subscription.cancel = unsubscribe;
    },
  });
}
