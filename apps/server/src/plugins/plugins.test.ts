import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';

function builtWebApp(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'web-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>StudyChat</title><div id="root"></div>');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  return dir;
}

describe('serving the built web app (production)', () => {
  it('answers client routes with index.html, assets with long caching, unknown API paths with JSON 404', async () => {
    const t = await createTestApp('sqlite', { config: { webDistDir: builtWebApp() } });
    for (const url of ['/', '/login', '/prolific?PROLIFIC_PID=x&EXPERIMENT_ID=y', '/admin/user/123', '/no/such/page']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root"></div>');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');

    // The file server's own refusals are `{ error, code }` too (docs/decisions/0074).
    const range = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { range: 'bytes=9999-' },
    });
    expect(range.statusCode).toBe(416);
    expect(range.json()).toEqual({ error: 'Range Not Satisfiable', code: 'BAD_REQUEST' });
    const precondition = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'if-match': '"another"' },
    });
    expect(precondition.statusCode).toBe(412);
    expect(precondition.json()).toEqual({ error: 'Precondition Failed', code: 'BAD_REQUEST' });

    const staleChunk = await t.app.inject({ method: 'GET', url: '/assets/ChatPage-old123.js' });
    expect(staleChunk.statusCode).toBe(404);
    expect(staleChunk.headers['content-type']).toMatch(/json/);

    const api = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'Route GET /api/nothing-here not found', code: 'NOT_FOUND' });
    const post = await t.app.inject({ method: 'POST', url: '/somewhere', payload: {} });
    expect(post.statusCode).toBe(404);
    await t.app.close();
  });
});

describe('security headers', () => {
  it('sends no-store, nosniff and frame denial on API replies', async () => {
    const t = await createTestApp('sqlite');
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
    await t.app.close();
  });

  it('sends the full document policy on pages: scripts only from this origin, no framing', async () => {
    const t = await createTestApp('sqlite', { config: { webDistDir: builtWebApp() } });
    const res = await t.app.inject({ method: 'GET', url: '/prolific' });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    await t.app.close();
  });

  it('refuses a non-JSON body with 415 and { error, code }', async () => {
    const t = await createTestApp('sqlite');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'BAD_REQUEST' });
    await t.app.close();
  });
});
