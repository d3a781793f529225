import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { activeStaffSessionIds } from '../auth/auth.service.js';
import { eventsAfter, latestSeq } from './monitor.repository.js';

// The monitor's live updates (docs/decisions/0031). Each server process polls the shared event log by
// position, once per interval per watched experiment whatever the number of admins watching, and tells its
// subscribers the new position; several processes sharing one PostgreSQL each see every process's events.
// The same poll re-checks the watchers' sessions (one statement for all of them), so a stream ends within a poll
// of its session's revocation or its account's loss of the staff role (docs/decisions/0074-hardening.md).

export interface MonitorTick {
  /** The newest position in the experiment's event log. */
  seq: number;
  /** Events since the previous tick (0 for the first message of a stream). */
  events: number;
}

/** One open stream. */
export interface Subscriber {
  /** Told the current position first, then each new one. */
  tick: (tick: MonitorTick) => void;
  /** The watcher's session, re-checked on every poll. */
  sessionId: string;
  /** Called once the session no longer admits the stream (revoked, expired, or the account is no longer staff). */
  end: () => void;
}

interface Watch {
  subscribers: Set<Subscriber>;
  seq: number;
  polling: boolean;
  stop: () => void;
}

export interface MonitorHubOptions {
  pollMs: number;
}

export class MonitorHub {
  private readonly watches = new Map<string, Watch>();
  /** Polls run (for the bench and tests). */
  polls = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: MonitorHubOptions,
    private readonly clock: () => Date,
  ) {}

  /** Subscribes to an experiment's log; the subscriber first gets the current position. */
  async subscribe(experimentId: string, subscriber: Subscriber): Promise<() => void> {
    let watch = this.watches.get(experimentId);
    if (!watch) {
      const seq = await latestSeq(this.db, experimentId);
      watch = this.watches.get(experimentId); // another subscriber may have started it meanwhile
      if (!watch) {
        const created: Watch = { subscribers: new Set(), seq, polling: false, stop: () => undefined };
        const timer = setInterval(() => void this.poll(experimentId, created), this.options.pollMs);
        timer.unref();
        created.stop = () => clearInterval(timer);
        this.watches.set(experimentId, created);
        watch = created;
      }
    }
    const current = watch;
    current.subscribers.add(subscriber);
    subscriber.tick({ seq: current.seq, events: 0 });
    return () => {
      current.subscribers.delete(subscriber);
      if (current.subscribers.size === 0 && this.watches.get(experimentId) === current) {
        current.stop();
        this.watches.delete(experimentId);
      }
    };
  }

  private async poll(experimentId: string, watch: Watch): Promise<void> {
    if (watch.polling) return;
    watch.polling = true;
    try {
      this.polls += 1;
      await this.endRevoked(watch);
      if (watch.subscribers.size === 0) return;
      const found = await eventsAfter(this.db, experimentId, watch.seq);
      if (found.count === 0) return;
      watch.seq = found.seq;
      for (const subscriber of watch.subscribers) subscriber.tick({ seq: found.seq, events: found.count });
    } catch {
      // The database was briefly unavailable: the next tick tries again from the same position.
    } finally {
      watch.polling = false;
    }
  }

  /** Ends the streams whose session no longer admits them. */
  private async endRevoked(watch: Watch): Promise<void> {
    const sessionIds = [...new Set([...watch.subscribers].map((s) => s.sessionId))];
    const active = new Set(await activeStaffSessionIds(this.db, sessionIds, this.clock().toISOString()));
    for (const subscriber of [...watch.subscribers]) {
      if (!active.has(subscriber.sessionId)) subscriber.end();
    }
  }

  /** Stops every poll (app close). */
  close(): void {
    for (const watch of this.watches.values()) watch.stop();
    this.watches.clear();
  }
}
