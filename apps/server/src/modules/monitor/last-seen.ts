import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** At most one last-seen write per participant per this many milliseconds (docs/decisions/0030). */
export const LAST_SEEN_WRITE_INTERVAL_MS = 30_000;
/** The in-process memory of recent writes is cleared past this many participants (it only saves queries). */
const REMEMBERED_MAX = 50_000;

/**
 * Records a participant's last API call cheaply. Each process remembers when it last wrote for a
 * participant and skips the database within the interval; the UPDATE itself only matches a row whose
 * stored time is older than the interval, so several processes together still write at most about once
 * per participant per interval.
 */
export class LastSeen {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => Date,
    private readonly intervalMs = LAST_SEEN_WRITE_INTERVAL_MS,
  ) {}

  /**
   * A write made elsewhere at `at` (a participant's login sets last seen with its own write): the next
   * calls within the interval skip the database.
   */
  remember(userId: string, at: Date): void {
    if (this.written.size >= REMEMBERED_MAX) this.written.clear();
    this.written.set(userId, at.getTime());
  }

  async touch(userId: string): Promise<void> {
    const now = this.clock();
    const last = this.written.get(userId);
    // A clock moved back (tests) is treated as a new interval.
    if (last !== undefined && now.getTime() - last < this.intervalMs && now.getTime() >= last) return;
    if (this.written.size >= REMEMBERED_MAX) this.written.clear();
    this.written.set(userId, now.getTime());
    const cutoff = new Date(now.getTime() - this.intervalMs).toISOString();
    await this.db
      .updateTable('users')
      .set({ last_seen_at: now.toISOString() })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', cutoff)]))
      .execute();
  }
}
