import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ErrorReply } from '@studychat/contracts';

/**
 * Serves the built web app (production). Any non-API GET that is not a file gets index.html, so the
 * client router handles it; unknown API paths get a JSON 404.
 */
export async function registerStaticWeb(app: FastifyInstance, webDistDir: string | undefined): Promise<void> {
  const root = webDistDir ? path.resolve(webDistDir) : undefined;
  const serveWeb = root !== undefined && existsSync(path.join(root, 'index.html'));
  if (root !== undefined && !serveWeb)
    app.log.warn({ root }, 'web app not built: run `npm run build`; serving the API only');

  if (serveWeb) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      cacheControl: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    // A missing file (e.g. a chunk of an older build) is a 404, not index.html served as JavaScript.
    const isFile = pathname.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(pathname);
    if (serveWeb && !isApi && !isFile && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    const body: ErrorReply = {
      error: `Route ${request.method} ${request.url.split('?')[0]} not found`,
      code: 'NOT_FOUND',
    };
    return reply.code(404).send(body);
  });
}
