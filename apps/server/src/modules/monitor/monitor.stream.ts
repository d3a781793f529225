import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { eventsAfter, latestSeq } from './monitor.repository.js';

// The monitor's live updates (docs/decisions/0031). Each server process polls the shared event log by
// position, once per interval per watched experiment whatever the number of admins watching, and tells its
// subscribers the new position; several processes sharing one PostgreSQL each see every process's events.

export interface MonitorTick {
  /** The newest position in the experiment's event log. */
  seq: number;
  /** Events since the previous tick (0 for the first message of a stream). */
  events: number;
}

type Subscriber = (tick: MonitorTick) => void;

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
    subscriber({ seq: current.seq, events: 0 });
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
      const found = await eventsAfter(this.db, experimentId, watch.seq);
      if (found.count === 0) return;
      watch.seq = found.seq;
      for (const subscriber of watch.subscribers) subscriber({ seq: found.seq, events: found.count });
    } catch {
      // The database was briefly unavailable: the next tick tries again from the same position.
    } finally {
      watch.polling = false;
    }
  }

  /** Stops every poll (app close). */
  close(): void {
    for (const watch of this.watches.values()) watch.stop();
    this.watches.clear();
  }
}
