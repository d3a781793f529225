import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The session check's per-process cache (docs/decisions/0040-session-check-cache.md): an active session
 * seen in the database is trusted for a few seconds without reading it again. Only with SQLite, where one
 * server process owns the database (WORKERS=1 is enforced), so every revocation passes through this
 * process and evicts the entry here, at once. The session repository evicts on every change it makes.
 */
/** An active session: whose it is, whether it waits for two-factor enrolment, and when it expires. */
export interface ActiveSession {
  userId: string;
  restricted: boolean;
  /** ISO time: the session's own expiry still applies to a cached entry. */
  expiresAt: string;
}

export const SESSION_CACHE_TTL_MS = 10_000;
export const SESSION_CACHE_MAX = 20_000;

export interface Ticket {
  generation: number;
  epoch: number;
}

interface Entry extends ActiveSession {
  cachedAt: number;
  epoch: number;
}

/** Bumped by a change made where the cache cannot be found (inside a transaction): every entry is dropped. */
let globalEpoch = 0;

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped on every eviction: a read that started before it must not store what it read. */
  private generation = 0;

  /** The cached session if it is fresh, unexpired at `now`, and nothing was revoked since it was read. */
  get(sessionId: string, now: Date, nowMs: number = Date.now()): ActiveSession | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (
      entry.epoch !== globalEpoch ||
      nowMs - entry.cachedAt >= SESSION_CACHE_TTL_MS ||
      entry.expiresAt <= now.toISOString()
    ) {
      this.entries.delete(sessionId);
      return undefined;
    }
    return entry;
  }

  /** Call before reading the session from the database; pass the result to `store`. */
  ticket(): Ticket {
    return { generation: this.generation, epoch: globalEpoch };
  }

  /** Keeps a session read from the database, unless a revocation happened since its ticket was taken. */
  store(sessionId: string, session: ActiveSession, ticket: Ticket, nowMs: number = Date.now()): void {
    if (ticket.generation !== this.generation || ticket.epoch !== globalEpoch) return;
    if (this.entries.size >= SESSION_CACHE_MAX) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(sessionId, { ...session, cachedAt: nowMs, epoch: globalEpoch });
  }

  evict(match: { sessionId?: string; userId?: string }): void {
    this.generation += 1;
    if (match.sessionId !== undefined) this.entries.delete(match.sessionId);
    if (match.userId !== undefined) {
      for (const [id, entry] of this.entries) if (entry.userId === match.userId) this.entries.delete(id);
    }
  }
}

const caches = new WeakMap<Kysely<DB>, SessionCache>();

/** The cache of a database handle (the root handle, not a transaction). */
export function sessionCacheOf(db: Kysely<DB>): SessionCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new SessionCache();
    caches.set(db, cache);
  }
  return cache;
}

/** After a change to sessions through `db`: evicts what it touched (everything, from inside a transaction). */
export function sessionsChanged(db: Kysely<DB>, match: { sessionId?: string; userId?: string }): void {
  if (db.isTransaction) {
    globalEpoch += 1;
    return;
  }
  caches.get(db)?.evict(match);
}
