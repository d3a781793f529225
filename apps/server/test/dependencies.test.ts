import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

// Guards the lockfile override of `cookie` under light-my-request (docs/decisions/0024-cookie-override.md):
// Fastify's injector must still build a Cookie header with the version the override pins.
describe('dependency overrides', () => {
  it('app.inject sends cookies with the overridden cookie package', async () => {
    const app = Fastify();
    app.get('/echo', (request) => ({ cookie: request.headers.cookie ?? null }));
    const res = await app.inject({ method: 'GET', url: '/echo', cookies: { study: 'a b', other: '1' } });
    expect(res.json()).toEqual({ cookie: 'study=a%20b; other=1' });
    await app.close();
  });
});
