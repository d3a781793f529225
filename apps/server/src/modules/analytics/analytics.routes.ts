import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ExportParams, ExportQuery, IdParams, experimentRoutes, flowRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { exportFile } from './export.service.js';
import { participantSummary, participantsDetailed } from './analytics.service.js';
import { exportPackage } from './package.service.js';
import { flowProgress } from './flow-progress.service.js';
import { exportSpreadsheet } from './spreadsheet.service.js';
import { exportTranscripts } from './transcripts.service.js';

/** Participant summary, participants table and the CSV exports of an experiment (admin only). */
export function registerAnalyticsRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Admins and analysts; the per-participant table and the downloads are recorded in the audit log.
  const staff = { guards: [ctx.guards.requireStaff] };

  route(app, experimentRoutes.participantSummary, staff, (request) => participantSummary(ctx.deps, request.params.id));
  // A flow's monitor (issue 30): where each participant is, by step, pathway and condition.
  route(
    app,
    flowRoutes.progress,
    {
      ...staff,
      audit: { action: 'participants.view', target: (request) => ({ type: 'experiment', id: request.params.id }) },
    },
    (request) => flowProgress(ctx.deps, request.params.id, request.query.include_tests === 'true'),
  );
  route(
    app,
    experimentRoutes.participantsDetailed,
    {
      ...staff,
      audit: { action: 'participants.view', target: (request) => ({ type: 'experiment', id: request.params.id }) },
    },
    (request) => participantsDetailed(ctx.deps, request.params.id),
  );

  // A file download has no JSON reply schema: registered directly so Fastify pipes the stream (backpressure).
  const def = experimentRoutes.exportFile;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.path,
    schema: { params: ExportParams, querystring: ExportQuery },
    onRequest: staff.guards,
    handler: async (request, reply) => {
      const includeTests = request.query.include_tests === 'true';
      const download = await exportFile(ctx.deps, request.params.id, request.params.file, includeTests);
      await app.audit(request, {
        action: 'export.download',
        target: { type: 'experiment', id: request.params.id },
        details: includeTests ? { file: request.params.file, includeTests } : { file: request.params.file },
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${download.filename}"`)
        .send(download.body);
    },
  });

  // The whole-experiment downloads: one shape each (staff, audited, a file named by the service).
  const wholeExperimentDownload = (
    def: { method: 'GET'; path: string },
    file: string,
    type: string,
    produce: (
      experimentId: string,
      includeTests: boolean,
    ) => Promise<{ filename: string; body: Buffer | string | Readable }>,
  ) =>
    app.withTypeProvider<ZodTypeProvider>().route({
      method: def.method,
      url: def.path,
      schema: { params: IdParams, querystring: ExportQuery },
      onRequest: staff.guards,
      handler: async (request, reply) => {
        // Test runs ("preview as participant") only when asked for (docs/decisions/0027).
        const includeTests = request.query.include_tests === 'true';
        const download = await produce(request.params.id, includeTests);
        await app.audit(request, {
          action: 'export.download',
          target: { type: 'experiment', id: request.params.id },
          // The choice is recorded when test runs were included (the default adds nothing).
          details: includeTests ? { file, includeTests } : { file },
        });
        return reply
          .type(type)
          .header('content-disposition', `attachment; filename="${download.filename}"`)
          .send(download.body);
      },
    });

  wholeExperimentDownload(experimentRoutes.exportPackage, 'data-package.zip', 'application/zip', (id, tests) =>
    exportPackage(ctx.deps, id, tests),
  );
  wholeExperimentDownload(
    experimentRoutes.exportTranscripts,
    'transcripts-redacted.csv',
    'text/csv; charset=utf-8',
    (id, tests) => exportTranscripts(ctx.deps.database, id, tests),
  );
  wholeExperimentDownload(
    experimentRoutes.exportSpreadsheet,
    'spreadsheet-safe.xlsx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    (id, tests) => exportSpreadsheet(ctx.deps, id, tests),
  );
}
