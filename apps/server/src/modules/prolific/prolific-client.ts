// Prolific's researcher API, as its documentation describes it (docs/decisions/0083-prolific-api.md):
// `Authorization: Token <token>`, list replies paged by `_links.next.href`, 429 answered by waiting (Retry-After
// when given, else exponential back-off), 401 and 404 as errors of their own, and a time-out on every call.
// Waiting goes through the injected `sleep`, so tests move their clock instead of waiting.

export type ProlificErrorKind = 'unauthorized' | 'not_found' | 'rate_limited' | 'unavailable' | 'rejected';

export class ProlificError extends Error {
  constructor(
    readonly kind: ProlificErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProlificError';
  }
  /** Worth trying again later: Prolific was busy or out of reach, not refusing the request itself. */
  get transient(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable';
  }
}

export interface ProlificClientOptions {
  baseUrl: string;
  token: string;
  /** Per request; the request is aborted after it. */
  timeoutMs?: number;
  /** Attempts of one request while Prolific answers 429. */
  maxRateLimitAttempts?: number;
  sleep: (ms: number) => Promise<void>;
  /** Reads a Retry-After given as a date; the injected clock. */
  clock: () => Date;
  fetch?: typeof fetch;
}

export interface ProlificUser {
  id: string;
  email: string | null;
}

export interface ProlificSubmission {
  id: string;
  participantId: string | null;
  status: string;
  studyId: string | null;
}

export interface ProlificBonusSetUp {
  id: string;
  amount: string | null;
  fees: string | null;
  totalAmount: string | null;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const BASE_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

/** Retry-After as seconds or an HTTP date, in milliseconds; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.min(MAX_BACKOFF_MS, seconds * 1000));
  const at = Date.parse(header);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.min(MAX_BACKOFF_MS, at - now.getTime()));
}

export class ProlificClient {
  private readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: ProlificClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? fetch;
  }

  /** GET /api/v1/users/me/: the account the token belongs to (the documented way to test a token). */
  async me(): Promise<ProlificUser> {
    const body = (await this.request('GET', '/api/v1/users/me/')) as { id?: unknown; email?: unknown };
    if (typeof body.id !== 'string') throw new ProlificError('unavailable', 'Prolific answered without an account id');
    return { id: body.id, email: typeof body.email === 'string' ? body.email : null };
  }

  /** Every submission of a study, following the `next` links page after page. */
  async listSubmissions(studyId: string, maxPages = 100): Promise<ProlificSubmission[]> {
    const found: ProlificSubmission[] = [];
    let next: string | null = `/api/v1/submissions/?study=${encodeURIComponent(studyId)}`;
    for (let page = 0; next !== null && page < maxPages; page++) {
      const body = (await this.request('GET', next)) as {
        results?: unknown;
        _links?: { next?: { href?: unknown } | null };
      };
      const rows = Array.isArray(body.results) ? (body.results as Record<string, unknown>[]) : [];
      for (const row of rows) {
        if (typeof row.id !== 'string') continue;
        const participant = row.participant_id ?? row.participant;
        found.push({
          id: row.id,
          participantId: typeof participant === 'string' ? participant : null,
          status: typeof row.status === 'string' ? row.status : '',
          studyId: typeof row.study_id === 'string' ? row.study_id : null,
        });
      }
      const href = body._links?.next?.href;
      next = typeof href === 'string' && href !== '' ? href : null;
    }
    return found;
  }

  /** POST /api/v1/submissions/{id}/transition/ with action COMPLETE and the pathway's code (idempotent there). */
  async completeSubmission(submissionId: string, completionCode: string): Promise<{ status: string }> {
    const body = (await this.request('POST', `/api/v1/submissions/${encodeURIComponent(submissionId)}/transition/`, {
      action: 'COMPLETE',
      completion_code: completionCode,
    })) as { status?: unknown };
    return { status: typeof body.status === 'string' ? body.status : '' };
  }

  /** Bulk approve by submission ids (`POST /api/v1/submissions/bulk-approve/`); Prolific approves them in the background. */
  async bulkApprove(submissionIds: readonly string[]): Promise<void> {
    await this.request('POST', '/api/v1/submissions/bulk-approve/', { submission_ids: submissionIds });
  }

  /** POST /api/v1/submissions/{id}/transition/ with action REJECT, a message (100+ characters) and a category. */
  async rejectSubmission(submissionId: string, category: string, message: string): Promise<void> {
    await this.request('POST', `/api/v1/submissions/${encodeURIComponent(submissionId)}/transition/`, {
      action: 'REJECT',
      message,
      rejection_category: category,
    });
  }

  /**
   * Sets up (does not pay) bonuses for a study: `csv_bonuses` lines `<participant id>,<amount>` in the study's
   * currency. Answers the bulk payment's id, which `payBonuses` pays.
   */
  async setUpBonuses(studyId: string, csvBonuses: string): Promise<ProlificBonusSetUp> {
    const body = (await this.request('POST', '/api/v1/submissions/bonus-payments/', {
      study_id: studyId,
      csv_bonuses: csvBonuses,
    })) as { id?: unknown; amount?: unknown; fees?: unknown; total_amount?: unknown };
    if (typeof body.id !== 'string' || body.id === '') {
      throw new ProlificError('unavailable', 'Prolific answered the bonus set-up without an id');
    }
    const text = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? String(v) : null);
    return { id: body.id, amount: text(body.amount), fees: text(body.fees), totalAmount: text(body.total_amount) };
  }

  /**
   * Pays a bulk bonus payment set up before. Prolific documents this call as NOT idempotent (each call pays again):
   * call it once per bulk id; the ledger (bonus.service.ts) makes sure of it.
   */
  async payBonuses(bulkId: string): Promise<void> {
    await this.request('POST', `/api/v1/bulk-bonus-payments/${encodeURIComponent(bulkId)}/pay/`, {});
  }

  /** One call: 429 waited out and tried again; other failures thrown as ProlificError. */
  async request(method: 'GET' | 'POST', pathOrUrl: string, body?: unknown): Promise<unknown> {
    const url = this.resolve(pathOrUrl);
    const attempts = this.options.maxRateLimitAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      const response = await this.send(method, url, body);
      if (response.status === 429) {
        await response.body?.cancel();
        if (attempt >= attempts) {
          throw new ProlificError('rate_limited', 'Prolific is busy (429) and kept refusing: try again later', 429);
        }
        const wait =
          retryAfterMs(response.headers.get('retry-after'), this.options.clock()) ??
          Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (attempt - 1));
        await this.options.sleep(wait);
        continue;
      }
      const text = await response.text();
      if (response.ok) return text === '' ? {} : parseJson(text);
      throw errorFor(response.status, text);
    }
  }

  /** A `next` link is absolute; it must stay on Prolific's host (the token is never sent elsewhere). */
  private resolve(pathOrUrl: string): string {
    const url = new URL(pathOrUrl, `${this.baseUrl}/`);
    if (url.origin !== new URL(this.baseUrl).origin) {
      throw new ProlificError('unavailable', 'Prolific sent a link to another host; it was not followed');
    }
    return url.toString();
  }

  private async send(method: string, url: string, body: unknown): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      return await this.fetchFn(url, {
        method,
        headers: {
          Authorization: `Token ${this.options.token}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: controller.signal,
        redirect: 'error',
      });
    } catch (error) {
      const timedOut = controller.signal.aborted;
      throw new ProlificError(
        'unavailable',
        timedOut ? 'Prolific did not answer in time' : `Prolific could not be reached (${(error as Error).message})`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ProlificError('unavailable', 'Prolific answered with something that is not JSON');
  }
}

function errorFor(status: number, text: string): ProlificError {
  if (status === 401 || status === 403) {
    return new ProlificError('unauthorized', 'Prolific refused the API token (check it, or create a new one)', status);
  }
  if (status === 404) return new ProlificError('not_found', 'Prolific has no such study or submission', status);
  if (status >= 500) return new ProlificError('unavailable', `Prolific failed (${status})`, status);
  const detail = text.slice(0, 200).replace(/\s+/g, ' ');
  return new ProlificError('rejected', `Prolific refused the request (${status}): ${detail}`, status);
}
