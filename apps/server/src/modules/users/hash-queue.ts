import { AppError } from '../../lib/errors.js';

/** Whether the caller's address has logged in to this account before: those wait ahead of the others. */
export type HashPriority = 'known' | 'unknown';

export const HASH_BUSY_MESSAGE = 'The server is busy checking other logins. Please try again in a moment.';
const RETRY_AFTER_SECONDS = 2;

/**
 * A bound on the slow password checks (argon2): at most `concurrency` at once and `queueLimit` waiting;
 * beyond that a login is answered 503 with Retry-After at once, instead of every login slowing down
 * together (1,000 concurrent bad logins made a good one wait 17.5 s). Callers from an address that has
 * logged in to the account before wait ahead of the others, so a flood of guesses does not keep the
 * owner out. A per-process bound on work, not shared state: nothing depends on it for correctness.
 */
export class HashQueue {
  private active = 0;
  private readonly waiting: Record<HashPriority, (() => void)[]> = { known: [], unknown: [] };

  constructor(
    private readonly concurrency: number,
    private readonly queueLimit: number,
  ) {}

  /** Runs `task` in a slot; throws 503 SERVICE_BUSY when too many are waiting already. */
  async run<T>(priority: HashPriority, task: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active += 1;
    } else {
      if (this.waiting[priority].length >= this.queueLimit) {
        throw new AppError(503, 'SERVICE_BUSY', HASH_BUSY_MESSAGE, RETRY_AFTER_SECONDS);
      }
      // The slot is handed over by release(), so `active` stays counted.
      await new Promise<void>((resolve) => this.waiting[priority].push(resolve));
    }
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Checks running and waiting, for tests and the bench. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.known.length + this.waiting.unknown.length };
  }

  private release(): void {
    const next = this.waiting.known.shift() ?? this.waiting.unknown.shift();
    if (next) next();
    else this.active -= 1;
  }
}
