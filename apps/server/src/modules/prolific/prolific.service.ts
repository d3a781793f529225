import type { FastifyBaseLogger } from 'fastify';
import {
  PROLIFIC_WEBHOOK_PATH,
  type ProlificConnection,
  type ProlificStudyLink,
  type ProlificSubmissionStatus,
  type ProlificTestReply,
} from '@studychat/contracts';
import type { Database } from '../../db/database.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, notFound } from '../../lib/errors.js';
import { toBool } from '../../db/values.js';
import { openSecret, sealSecret } from '../auth/secret-box.js';
import { ProlificClient, ProlificError } from './prolific-client.js';
import {
  claimPendingCompletion,
  claimWebhookEvent,
  completionFacts,
  experimentExists,
  linkedAssignmentsOfPid,
  readSettings,
  readStudyLink,
  recordCompletionAttempt,
  stalePendingCompletions,
  startCompletion,
  storeSubmissionStatus,
  writeSettings,
  writeStudyLink,
} from './prolific.repository.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookSignatureValid } from './webhook-signature.js';

// The Prolific connection (issue 33, docs/decisions/0083-prolific-api.md). With no API token set nothing here
// calls Prolific. The token and the webhook secret are sealed like the two-factor secrets (auth/secret-box.ts),
// under purposes of their own, and never sent back.

const TOKEN_PURPOSE = 'prolific-api-token';
const WEBHOOK_PURPOSE = 'prolific-webhook-secret';
/** Attempts of one server-side completion while Prolific is busy or out of reach. */
export const COMPLETION_ATTEMPTS = 5;
const COMPLETION_BACKOFF_MS = 2_000;
/**
 * How long a process trusts what it last read of "is a token set" before reading it again: one process sees
 * every change itself; several (node:cluster workers) read it again after a minute.
 */
const SHARED_CONFIGURED_TTL_MS = 60_000;

export interface ProlificRuntime {
  deps: AppDeps;
  pepper: string;
  apiUrl: string;
  timeoutMs: number;
  log: FastifyBaseLogger;
  /** Completions under way in this process (tests wait for them: `prolificIdle`). */
  pending: Set<Promise<void>>;
  /** Whether a token was set when last read, and when (the injected clock). */
  configured: { tokenSet: boolean; at: number } | null;
  /** How long `configured` holds (SHARED_CONFIGURED_TTL_MS with several server processes, else for good). */
  configuredTtlMs: number;
}

const runtimes = new WeakMap<Database, ProlificRuntime>();

export function startProlificRuntime(
  deps: AppDeps,
  options: { pepper: string; apiUrl: string; timeoutMs: number; log: FastifyBaseLogger; processes: number },
): ProlificRuntime {
  const { processes, ...rest } = options;
  const configuredTtlMs = processes > 1 ? SHARED_CONFIGURED_TTL_MS : Number.POSITIVE_INFINITY;
  const runtime: ProlificRuntime = { deps, ...rest, pending: new Set(), configured: null, configuredTtlMs };
  runtimes.set(deps.database, runtime);
  return runtime;
}

/** The process's Prolific runtime for this database (set when the routes are registered). */
export function prolificRuntimeOf(deps: AppDeps): ProlificRuntime | undefined {
  return runtimes.get(deps.database);
}

/** Resolves once every server-side completion started in this process so far has finished (tests). */
export async function prolificIdle(deps: AppDeps): Promise<void> {
  const runtime = runtimes.get(deps.database);
  while (runtime && runtime.pending.size > 0) await Promise.all([...runtime.pending]);
}

/** Reads whether a token is set, for the process's cache (at start, so a request never has to). */
export async function refreshConfigured(runtime: ProlificRuntime): Promise<boolean> {
  const settings = await readSettings(runtime.deps.database.db);
  const tokenSet = Boolean(settings?.api_token);
  runtime.configured = { tokenSet, at: runtime.deps.clock().getTime() };
  return tokenSet;
}

function connectionOf(settings: Awaited<ReturnType<typeof readSettings>>): ProlificConnection {
  return {
    tokenSet: Boolean(settings?.api_token),
    webhookSecretSet: Boolean(settings?.webhook_secret),
    updatedAt: settings ? new Date(settings.updated_at).toISOString() : null,
    webhookPath: PROLIFIC_WEBHOOK_PATH,
  };
}

export async function prolificConnection(runtime: ProlificRuntime): Promise<ProlificConnection> {
  return connectionOf(await readSettings(runtime.deps.database.db));
}

export async function saveProlificConnection(
  runtime: ProlificRuntime,
  adminId: string,
  body: { apiToken?: string; webhookSecret?: string },
): Promise<ProlificConnection> {
  const { deps, pepper } = runtime;
  await writeSettings(deps.database.db, {
    ...(body.apiToken !== undefined ? { apiToken: sealSecret(body.apiToken, pepper, TOKEN_PURPOSE) } : {}),
    ...(body.webhookSecret !== undefined
      ? { webhookSecret: sealSecret(body.webhookSecret, pepper, WEBHOOK_PURPOSE) }
      : {}),
    by: adminId,
    at: deps.clock().toISOString(),
  });
  await refreshConfigured(runtime);
  return prolificConnection(runtime);
}

export async function clearProlificConnection(runtime: ProlificRuntime, adminId: string): Promise<ProlificConnection> {
  const { deps } = runtime;
  await writeSettings(deps.database.db, {
    apiToken: null,
    webhookSecret: null,
    by: adminId,
    at: deps.clock().toISOString(),
  });
  await refreshConfigured(runtime);
  return prolificConnection(runtime);
}

/** A client with the stored token, or null when none is set (or it cannot be opened under this pepper). */
export async function clientOf(runtime: ProlificRuntime): Promise<ProlificClient | null> {
  const settings = await readSettings(runtime.deps.database.db);
  runtime.configured = { tokenSet: Boolean(settings?.api_token), at: runtime.deps.clock().getTime() };
  const token = settings?.api_token ? openSecret(settings.api_token, runtime.pepper, TOKEN_PURPOSE) : null;
  if (!token) return null;
  return new ProlificClient({
    baseUrl: runtime.apiUrl,
    token,
    timeoutMs: runtime.timeoutMs,
    sleep: runtime.deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    clock: runtime.deps.clock,
  });
}

/** A Prolific failure as the admin's reply: what went wrong, never a 500. */
export function asAppError(error: unknown): AppError {
  if (!(error instanceof ProlificError)) throw error;
  switch (error.kind) {
    case 'unauthorized':
      return new AppError(400, 'PROLIFIC_TOKEN_REJECTED', error.message);
    case 'not_found':
      return new AppError(404, 'PROLIFIC_NOT_FOUND', error.message);
    default:
      return new AppError(502, 'PROLIFIC_UNAVAILABLE', error.message);
  }
}

/** A pending completion untouched this long belongs to a process that stopped: it is taken up again. */
const STALE_PENDING_MS = 5 * 60_000;
const RESUMED_AT_ONCE = 100;

/**
 * At start (with a token set): completions a stopped process left pending are taken up again, each by the one
 * process that claims it (several workers may start together). Returns how many were taken up.
 */
export async function resumePendingCompletions(runtime: ProlificRuntime): Promise<number> {
  const { db } = runtime.deps.database;
  const now = runtime.deps.clock();
  const before = new Date(now.getTime() - STALE_PENDING_MS).toISOString();
  let resumed = 0;
  for (const row of await stalePendingCompletions(db, before, RESUMED_AT_ONCE)) {
    const claimed = await claimPendingCompletion(db, {
      assignmentId: row.assignment_id,
      seenAt: row.updated_at,
      at: now.toISOString(),
    });
    if (!claimed) continue;
    resumed += 1;
    track(runtime, completeSubmission(runtime, row.user_id, row.experiment_id));
  }
  return resumed;
}

/** Calls Prolific's users/me with the stored token. */
export async function testProlificConnection(runtime: ProlificRuntime): Promise<ProlificTestReply> {
  const client = await clientOf(runtime);
  if (!client) {
    throw new AppError(409, 'PROLIFIC_NOT_CONFIGURED', 'Set a Prolific API token first.');
  }
  try {
    const user = await client.me();
    return { ok: true, accountId: user.id, email: user.email };
  } catch (error) {
    throw asAppError(error);
  }
}

export async function prolificStudyLink(runtime: ProlificRuntime, experimentId: string): Promise<ProlificStudyLink> {
  const { db } = runtime.deps.database;
  if (!(await experimentExists(db, experimentId))) throw notFound('Experiment not found');
  const link = await readStudyLink(db, experimentId);
  return { experimentId, studyId: link?.study_id ?? null };
}

/** The Prolific study an experiment is linked to, or null (for the link-only landing's STUDY_ID check). */
export async function linkedStudyIdOf(deps: AppDeps, experimentId: string): Promise<string | null> {
  return (await readStudyLink(deps.database.db, experimentId))?.study_id ?? null;
}

export async function setProlificStudyLink(
  runtime: ProlificRuntime,
  experimentId: string,
  studyId: string | null,
): Promise<ProlificStudyLink> {
  const { db } = runtime.deps.database;
  if (!(await experimentExists(db, experimentId))) throw notFound('Experiment not found');
  await writeStudyLink(db, { experimentId, studyId, at: runtime.deps.clock().toISOString() });
  return { experimentId, studyId };
}

/** Prolific's status words (`TIMED-OUT`, `AWAITING REVIEW`, ...) as the monitor's. */
export function submissionStatusOf(status: string | null | undefined): ProlificSubmissionStatus {
  const key = (status ?? '')
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  switch (key) {
    case 'ACTIVE':
      return 'active';
    case 'RETURNED':
      return 'returned';
    case 'TIMED_OUT':
      return 'timed_out';
    case 'AWAITING_REVIEW':
      return 'awaiting_review';
    case 'APPROVED':
      return 'approved';
    case 'REJECTED':
      return 'rejected';
    default:
      return 'other';
  }
}

export interface WebhookRequest {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  body: { resource_id: string; event_type: string; participant_id?: string | null; status?: string | null };
}

const header = (headers: WebhookRequest['headers'], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * A webhook from Prolific: refused unless signed with the stored secret; an event id seen before is
 * acknowledged and skipped; a submission's status is stored on the participant it names (PID, and the
 * SESSION_ID when one was recorded), never over a later one.
 */
export async function receiveProlificWebhook(
  runtime: ProlificRuntime,
  request: WebhookRequest,
): Promise<{ ok: true; outcome: 'matched' | 'unmatched' | 'ignored' | 'duplicate' }> {
  const { deps, pepper } = runtime;
  const { db } = deps.database;
  const settings = await readSettings(db);
  const secret = settings?.webhook_secret ? openSecret(settings.webhook_secret, pepper, WEBHOOK_PURPOSE) : null;
  const timestamp = header(request.headers, TIMESTAMP_HEADER);
  if (
    !secret ||
    !webhookSignatureValid(secret, timestamp, request.rawBody, header(request.headers, SIGNATURE_HEADER))
  ) {
    throw new AppError(401, 'WEBHOOK_SIGNATURE_INVALID', 'The webhook is not signed with this server’s secret.');
  }
  const eventId = header(request.headers, EVENT_ID_HEADER)?.trim();
  if (!eventId || eventId.length > 100) {
    throw new AppError(400, 'VALIDATION_FAILED', 'The webhook has no X-Event-ID header.');
  }
  const now = deps.clock();
  const seconds = Number(timestamp);
  const statusAt = Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : now;
  const { body } = request;
  const target =
    body.event_type === 'submission.status.change' && body.participant_id
      ? await matchSubmission(runtime, body.participant_id, body.resource_id)
      : null;
  const outcome = body.event_type !== 'submission.status.change' ? 'ignored' : target ? 'matched' : 'unmatched';
  const claimed = await db.transaction().execute(async (trx) => {
    const first = await claimWebhookEvent(trx, {
      eventId,
      eventType: body.event_type,
      outcome,
      at: now.toISOString(),
    });
    if (first && target) {
      await storeSubmissionStatus(trx, {
        assignmentId: target,
        submissionId: body.resource_id,
        status: submissionStatusOf(body.status),
        statusAt: statusAt.toISOString(),
        at: now.toISOString(),
      });
    }
    return first;
  });
  return { ok: true, outcome: claimed ? outcome : 'duplicate' };
}

/** The assignment a submission belongs to: the PID's in a linked experiment whose SESSION_ID matches or is unknown. */
async function matchSubmission(runtime: ProlificRuntime, pid: string, submissionId: string): Promise<string | null> {
  return pickAssignment(await linkedAssignmentsOfPid(runtime.deps.database.db, pid), submissionId);
}

/**
 * Of one PID's assignments, the one a submission belongs to: the one whose recorded SESSION_ID is the submission,
 * else the only one with none recorded (the webhooks' rule, also the paged sync's: submissions-sync.service.ts).
 */
export function pickAssignment(
  rows: readonly { id: string; session_id: string | null }[],
  submissionId: string,
): string | null {
  const exact = rows.filter((r) => r.session_id === submissionId);
  if (exact.length > 0) return exact.length === 1 ? (exact[0]?.id ?? null) : null;
  const open = rows.filter((r) => r.session_id === null);
  return open.length === 1 ? (open[0]?.id ?? null) : null;
}

/**
 * Called once the server has recorded a participant's pathway (participants' completion, a flow's end step),
 * after its transaction: completes their Prolific submission with the pathway's code in the background, so the
 * participant's reply never waits for Prolific. Does nothing without a token or a linked study.
 */
export function afterPathwayRecorded(deps: AppDeps, userId: string, experimentId: string): void {
  const runtime = runtimes.get(deps.database);
  if (!runtime) return;
  const known = runtime.configured;
  if (known && !known.tokenSet && deps.clock().getTime() - known.at < runtime.configuredTtlMs) return;
  track(runtime, completeSubmission(runtime, userId, experimentId));
}

/** A background completion: never an unhandled rejection; awaited by `prolificIdle` in tests. */
function track(runtime: ProlificRuntime, work: Promise<void>): void {
  const job = work.catch((error: unknown) => {
    runtime.log.error({ err: error }, 'prolific: the server-side completion failed');
  });
  runtime.pending.add(job);
  void job.finally(() => runtime.pending.delete(job));
}

async function completeSubmission(runtime: ProlificRuntime, userId: string, experimentId: string): Promise<void> {
  const { deps } = runtime;
  const { db } = deps.database;
  const client = await clientOf(runtime);
  if (!client) return;
  const facts = await completionFacts(db, userId, experimentId);
  if (!facts || !facts.completed_at || !facts.completion_code || !facts.prolific_pid) return;
  if (toBool(facts.is_test) || facts.completion_state === 'done') return;
  await startCompletion(db, { assignmentId: facts.id, code: facts.completion_code, at: deps.clock().toISOString() });
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      const submissionId = facts.session_id ?? (await submissionOfPid(client, facts.study_id, facts.prolific_pid));
      if (!submissionId) {
        await recordCompletionAttempt(db, {
          assignmentId: facts.id,
          state: 'failed',
          error: 'Prolific lists no submission of this participant in the linked study',
          at: deps.clock().toISOString(),
        });
        return;
      }
      await client.completeSubmission(submissionId, facts.completion_code);
      await recordCompletionAttempt(db, {
        assignmentId: facts.id,
        state: 'done',
        error: null,
        at: deps.clock().toISOString(),
      });
      return;
    } catch (error) {
      if (!(error instanceof ProlificError)) throw error;
      const retry = error.transient && attempt < COMPLETION_ATTEMPTS;
      await recordCompletionAttempt(db, {
        assignmentId: facts.id,
        state: retry ? 'pending' : 'failed',
        error: error.message,
        at: deps.clock().toISOString(),
      });
      if (!retry) {
        runtime.log.warn({ assignmentId: facts.id, kind: error.kind }, 'prolific: completion not accepted');
        return;
      }
      await sleep(COMPLETION_BACKOFF_MS * 2 ** (attempt - 1));
    }
  }
}

async function submissionOfPid(client: ProlificClient, studyId: string, pid: string): Promise<string | null> {
  const submissions = await client.listSubmissions(studyId);
  return submissions.find((s) => s.participantId === pid)?.id ?? null;
}
