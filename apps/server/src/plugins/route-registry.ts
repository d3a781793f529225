import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route registered, as `METHOD /path` (the authorisation matrix test checks it covers them all). */
    readonly apiRoutes: readonly string[];
  }
}

/** Records each API route as it is registered; register before any route. */
export function registerRouteRegistry(app: FastifyInstance): void {
  const routes: string[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (options) => {
    if (!options.url.startsWith('/api/')) return;
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    // Fastify adds HEAD for every GET by itself.
    for (const method of methods) if (method !== 'HEAD') routes.push(`${method} ${options.url}`);
  });
}
