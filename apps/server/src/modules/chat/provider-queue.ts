import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { ChatModelError } from '../../llm/errors.js';
import { insertTurn, pauseProvider, setTurn, withQueue, type QueueState } from './provider-queue.repository.js';

// A reply's turn at the provider (docs/decisions/0076): the provider's concurrency and tokens per minute are shared
// by every server process through the database, replies over the limit wait in the order they asked, and a 429 or
// 529 (overloaded) makes every reply wait the provider's retry-after instead of failing.

/** The tokens-per-minute window. */
export const WINDOW_MS = 60_000;
/** How often a waiting reply asks again for its turn (more slowly far back in the queue). */
const POLL_MS = 250;
const FAR_POLL_MS = 1000;
/** A 529 without retry-after: back off from this, doubling up to the ceiling. */
const OVERLOADED_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 8000;

export interface QueueLimits {
  /** Calls in flight at once across every process; null: no limit. */
  concurrency: number | null;
  /** Tokens granted per minute across every process; null: no limit. */
  tokensPerMinute: number | null;
  /** Longest a reply waits in all (turns and retry-afters) before it fails as unavailable. */
  maxWaitMs: number;
}

export const queued = (limits: QueueLimits): boolean => limits.concurrency !== null || limits.tokensPerMinute !== null;

export type TurnDecision = { go: true } | { go: false; position: number; waitMs: number };

/**
 * Whether the waiting turn `id` may start now: the provider is not paused, fewer calls run than the concurrency
 * allows counting the turns ahead of it, and its tokens fit in the minute's window with theirs (a turn at the
 * head of an empty window always fits, however large). Fair: a turn never starts before one that asked earlier.
 */
export function decideTurn(state: QueueState, id: string, nowMs: number, limits: QueueLimits): TurnDecision {
  const waiting = state.turns.filter((t) => t.state === 'waiting');
  const position = Math.max(
    0,
    waiting.findIndex((t) => t.id === id),
  );
  const pausedMs = state.pausedUntil === null ? 0 : Date.parse(state.pausedUntil) - nowMs;
  if (pausedMs > 0) return { go: false, position, waitMs: pausedMs };
  const running = state.turns.filter((t) => t.state === 'running').length;
  if (limits.concurrency !== null && running + position >= limits.concurrency) {
    return { go: false, position, waitMs: position >= (limits.concurrency ?? 1) ? FAR_POLL_MS : POLL_MS };
  }
  if (limits.tokensPerMinute !== null) {
    const granted = state.turns.filter((t) => t.state !== 'waiting' && t.grantedAt !== null);
    const used = granted.reduce((sum, t) => sum + t.tokens, 0);
    const ahead = waiting.slice(0, position + 1).reduce((sum, t) => sum + t.tokens, 0);
    const fits = used + ahead <= limits.tokensPerMinute || (used === 0 && position === 0);
    if (!fits) {
      // The window frees as its oldest grant ages out of it.
      const oldest = Math.min(...granted.map((t) => Date.parse(t.grantedAt ?? '')));
      const frees = Number.isFinite(oldest) ? oldest + WINDOW_MS - nowMs : POLL_MS;
      return { go: false, position, waitMs: Math.max(POLL_MS, Math.min(frees, FAR_POLL_MS * 5)) };
    }
  }
  return { go: true };
}

/** How long the provider asked the reply to wait (429, or 529 overloaded, before any text); null: not a wait. */
export function askedToWait(error: unknown, attempt: number, random: () => number): number | null {
  if (!(error instanceof ChatModelError) || error.afterFirstToken) return null;
  const overloaded = error.options.status === 529 || error.options.providerCode === 'overloaded_error';
  if (error.failure !== 'rate_limited' && !overloaded) return null;
  if (error.options.retryAfterMs !== undefined) return error.options.retryAfterMs;
  const ceiling = Math.min(MAX_BACKOFF_MS, OVERLOADED_BACKOFF_MS * 2 ** (attempt - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

export interface TurnContext {
  db: Kysely<DB>;
  clock: () => Date;
  newId: () => string;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  limits: QueueLimits;
  /** The limit's key: the provider's name. */
  provider: string;
  threadId: string;
  /** The thread's reply lease the caller holds: the turn lives as long as it does. */
  leaseId: string;
  /** The tokens the call is expected to use, counted in the window until it reports its own. */
  tokens: number;
  /** Called each time the reply has to wait (the participant is told the assistant is busy). */
  onWait: (position: number) => void;
}

/** What a reply's wait came to: how long in all, and how many times it was asked to wait. */
export interface TurnStats {
  waitedMs: number;
  waits: number;
}

/**
 * Runs `call` in the reply's turn: first waiting for it (when a limit is set), then, when the provider answers 429
 * or 529, pausing every process's calls for its retry-after and waiting again at the same place in the queue.
 * Gives up as a rate-limit failure once the next wait would pass `maxWaitMs`. `used` gives the tokens a finished
 * call used, for the window.
 */
export async function inTurn<T>(
  q: TurnContext,
  call: () => Promise<T>,
  used: (result: T) => number | null,
  stats: TurnStats,
): Promise<T> {
  const started = q.clock().getTime();
  const limited = queued(q.limits);
  let turnId: string | null = null;
  let asked = 0;
  const wait = async (ms: number, position: number): Promise<void> => {
    const elapsed = q.clock().getTime() - started;
    if (elapsed + ms > q.limits.maxWaitMs) {
      throw new ChatModelError('rate_limited', `Waited ${elapsed} ms for a turn at the provider; giving up`);
    }
    stats.waits += 1;
    q.onWait(position);
    await q.sleep(ms);
    stats.waitedMs = q.clock().getTime() - started;
  };
  let result: T | undefined;
  try {
    for (;;) {
      if (limited) {
        const decision = await takeTurn(q, turnId, (id) => (turnId = id));
        if (!decision.go) {
          await wait(decision.waitMs, decision.position);
          continue;
        }
      }
      try {
        result = await call();
        return result;
      } catch (error) {
        asked += 1;
        const waitMs = askedToWait(error, asked, q.random);
        if (waitMs === null) throw error;
        const elapsed = q.clock().getTime() - started;
        if (elapsed + waitMs > q.limits.maxWaitMs) throw error;
        if (limited && turnId !== null) {
          await requeue(q, turnId, new Date(q.clock().getTime() + waitMs).toISOString());
          // Its place in the queue is kept; the loop waits for the pause to end.
          continue;
        }
        await wait(waitMs, 0);
      }
    }
  } finally {
    if (turnId !== null) {
      const tokens = result === undefined ? null : used(result);
      await setTurn(q.db, turnId, { state: 'done', ...(tokens !== null ? { tokens } : {}) });
    }
  }
}

/** Joins the queue (the first time) and asks for the turn; a granted turn is marked running. */
async function takeTurn(q: TurnContext, turnId: string | null, joined: (id: string) => void): Promise<TurnDecision> {
  const now = q.clock();
  const times = { iso: now.toISOString(), windowStartIso: new Date(now.getTime() - WINDOW_MS).toISOString() };
  return withQueue(q.db, q.provider, times, async (trx, state) => {
    let id = turnId;
    let current = state;
    if (id === null || !state.turns.some((t) => t.id === id)) {
      // New, or dropped meanwhile (its lease lapsed and came back): at the end of the queue.
      id = q.newId();
      const seq = state.turns.reduce((max, t) => Math.max(max, t.seq), 0) + 1;
      await insertTurn(trx, {
        id,
        provider: q.provider,
        seq,
        threadId: q.threadId,
        leaseId: q.leaseId,
        tokens: q.tokens,
      });
      joined(id);
      current = {
        ...state,
        turns: [...state.turns, { id, seq, state: 'waiting', tokens: q.tokens, grantedAt: null }],
      };
    }
    const decision = decideTurn(current, id, now.getTime(), q.limits);
    if (decision.go) await setTurn(trx, id, { state: 'running', grantedAt: times.iso });
    return decision;
  });
}

/** The provider asked to wait: every process pauses until then, and this turn waits again at its place. */
async function requeue(q: TurnContext, turnId: string, untilIso: string): Promise<void> {
  const now = q.clock();
  const times = { iso: now.toISOString(), windowStartIso: new Date(now.getTime() - WINDOW_MS).toISOString() };
  await withQueue(q.db, q.provider, times, async (trx) => {
    await pauseProvider(trx, q.provider, untilIso);
    await setTurn(trx, turnId, { state: 'waiting' });
  });
}
