import type { APIRequestContext } from '@playwright/test';
import type { Experiment, GeneratedCredential, LoginResult } from '@studychat/contracts/web';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../playwright.config';

let adminToken: string | undefined;

/** Admin-side setup through the real API, so each test starts from data it made itself. */
export class AdminApi {
  private constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  /** Logs the admin in once per test run (the session outlives the tests); later calls reuse the token. */
  static async login(request: APIRequestContext): Promise<AdminApi> {
    if (!adminToken) {
      const res = await request.post('/api/auth/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
      if (!res.ok()) throw new Error(`admin login failed: ${res.status()} ${await res.text()}`);
      adminToken = ((await res.json()) as LoginResult).token;
    }
    return new AdminApi(request, adminToken);
  }

  private get headers() {
    return { authorization: `Bearer ${this.token}` };
  }

  async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown): Promise<T> {
    const res = await this.request.fetch(url, { method, headers: this.headers, data });
    if (!res.ok()) throw new Error(`${method} ${url} failed: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  }

  /** A GET whose reply is text (an export file). */
  async text(url: string): Promise<string> {
    const res = await this.request.get(url, { headers: this.headers });
    if (!res.ok()) throw new Error(`GET ${url} failed: ${res.status()} ${await res.text()}`);
    return res.text();
  }

  /** An experiment with all three completion codes set. */
  async createExperiment(name = `E2E study ${Date.now()}`): Promise<Experiment & { codes: Record<string, string> }> {
    const experiment = await this.call<Experiment>('POST', '/api/experiments', {
      name,
      description: 'Created by an end-to-end test',
    });
    const codes = {
      complete: `C-${experiment.id.slice(0, 6)}`,
      exitnoqualms: `NQ-${experiment.id.slice(0, 6)}`,
      exitceiling: `CE-${experiment.id.slice(0, 6)}`,
    };
    await this.call('PUT', `/api/experiments/${experiment.id}/completion-codes`, { codes });
    return { ...experiment, codes };
  }

  /** Moves the server clock forward (the test server runs with TEST_CLOCK=manual). */
  async advanceClock(ms: number): Promise<void> {
    await this.call('POST', '/api/test/clock', { advanceMs: Math.round(ms) });
  }

  async credentials(experimentId: string, count = 1): Promise<GeneratedCredential[]> {
    return this.call<GeneratedCredential[]>('POST', `/api/experiments/${experimentId}/batch-credentials`, { count });
  }
}
