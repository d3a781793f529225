import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { createOffsetClock } from '../../lib/test-clock.js';

const base = new Date('2026-11-20T10:00:00.000Z');

describe('the browser tests clock', () => {
  describe('when enabled (NODE_ENV=test, TEST_CLOCK=manual)', () => {
    const control = createOffsetClock(() => base);
    const t = useTestApp('sqlite', {
      config: { env: 'test', testClock: true },
      deps: { clock: control.clock, clockControl: control },
    });

    it('lets an admin move the server clock forward, never back, and nobody else', async () => {
      const participant = await createAndLogin(t());
      const advance = (headers: Record<string, string> | undefined, advanceMs: unknown) =>
        t().app.inject({
          method: 'POST',
          url: '/api/test/clock',
          ...(headers ? { headers } : {}),
          payload: { advanceMs },
        });
      expect((await advance(undefined, 1000)).statusCode).toBe(401);
      expect((await advance(participant.headers, 1000)).statusCode).toBe(403);
      const admin = await createAndLogin(t(), { isAdmin: true });
      expect(expectJson(await advance(admin.headers, 40_000), 200)).toEqual({ now: '2026-11-20T10:00:40.000Z' });
      expect((await advance(admin.headers, -5_000)).statusCode).toBe(400);
      expect(control.clock().toISOString()).toBe('2026-11-20T10:00:40.000Z');
    });
  });

  describe('otherwise', () => {
    const control = createOffsetClock(() => base);
    const t = useTestApp('sqlite', { deps: { clockControl: control } });

    it('has no such route, even for an admin', async () => {
      const admin = await createAndLogin(t(), { isAdmin: true });
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/test/clock',
        headers: admin.headers,
        payload: { advanceMs: 1000 },
      });
      expect(res.statusCode).toBe(404);
      expect(control.clock().toISOString()).toBe(base.toISOString());
    });
  });
});
