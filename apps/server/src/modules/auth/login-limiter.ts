import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import {
  ACCOUNT_WINDOW_MS,
  ADDRESS_CEILING,
  ADDRESS_WINDOW_MS,
  addressWaitMs,
  decideAccount,
  decidePair,
  describeWait,
  KNOWN_ADDRESS_TTL_MS,
  PAIR_IDLE_RESET_MS,
  type Counter,
  type Decision,
} from './login-rules.js';
import {
  addressRemember,
  attemptRefund,
  compareAndSetCounter,
  counterDelete,
  countWithinCeiling,
  findCounter,
  pruneThrottles,
  refundAttempt,
} from './login-throttle.repository.js';

// Login attempts are reserved in the database BEFORE the password is checked, with compare-and-set, so
// parallel guesses cannot pass the limit (all processes share the counters). See
// docs/decisions/0017-login-limits.md for the rules and why they cannot be turned against the owner.

export const pairKey = (account: string, address: string) => `pair:${account} ${address}`;
export const accountKey = (account: string) => `account:${account}`;
/** Failed attempts from one address across accounts (docs/decisions/0074-hardening.md). */
export const addressKey = (address: string) => `address:${address}`;

/** Tries before a reservation under heavy contention is refused (each failed try means another attempt won). */
const MAX_TRIES = 20;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export interface AttemptScope {
  /** Lower-cased email as typed (the account need not exist: unknown emails are limited alike). */
  account: string;
  /** addressKeyOf(request.ip). */
  address: string;
  /** The address has logged in to this account recently: exempt from the account and the address ceilings. */
  known: boolean;
}

/** A reserved attempt: confirm it on success, cancel it when the password could not be checked at all. */
export interface Reservation {
  /**
   * The writes that confirm a successful attempt (the pair cleared, the account's unit given back, the address
   * remembered), for the caller to run with the login's own writes (db/atomic-writes.ts).
   */
  succeeded(userId: string): CompiledQuery[];
  cancel(): Promise<void>;
}

interface Taken {
  key: string;
  before: Counter | undefined;
  after: Counter;
}

type Scope = 'pair' | 'account' | 'address';

export function tooManyAttempts(retryAfterMs: number, scope: Scope): AppError {
  const wait = describeWait(retryAfterMs);
  const messages: Record<Scope, string> = {
    pair: `Too many failed login attempts. Please wait ${wait} and try again.`,
    account: `Too many failed login attempts for this account. Please wait ${wait}, or log in from a device you have used before.`,
    address: `Too many failed login attempts from your network. Please wait ${wait}, or log in from a device you have used before.`,
  };
  return new AppError(429, 'RATE_LIMITED', messages[scope], Math.ceil(retryAfterMs / 1000));
}

/** A unit taken from a windowed ceiling: given back unless the attempt failed. */
interface CeilingUnit {
  key: string;
  windowStart: Date;
}

export class LoginLimiter {
  private lastPrune = 0;

  constructor(private readonly db: Kysely<DB>) {}

  /** Addresses that logged in to an account since this time are known (exempt from the account ceiling). */
  knownSince(now: Date): Date {
    return new Date(now.getTime() - KNOWN_ADDRESS_TTL_MS);
  }

  /** Reserves one attempt, or throws 429 RATE_LIMITED with Retry-After. */
  async reserve(scope: AttemptScope, now: Date): Promise<Reservation> {
    await this.pruneNowAndThen(now);
    // Each counter is read right before its compare-and-set, the pair's after the account's is taken. Reading
    // both at once (one statement fewer) widened the pair's read-to-write window by the account's round trips:
    // a success clears the pair, the counter is then rebuilt through the same states (under a frozen clock the
    // same timestamps too), and an attempt holding a read from before the clear could win a compare-and-set
    // against the rebuilt state. The parallel-guess test (security/login-race.test.ts) caught it under load.
    // The account's and the address's ceilings (an address the account knows is exempt from both), then the pair.
    const units: CeilingUnit[] = [];
    const refundUnits = async () => {
      for (const unit of units) await refundAttempt(this.db, unit.key, unit.windowStart);
    };
    let pair: Taken;
    try {
      if (!scope.known) {
        const account = await this.take(accountKey(scope.account), decideAccount, now, 'account');
        units.push({ key: account.key, windowStart: account.after.windowStart });
        units.push(await this.takeAddress(scope.address, now));
      }
      pair = await this.take(pairKey(scope.account, scope.address), decidePair, now, 'pair');
    } catch (error) {
      await refundUnits();
      throw error;
    }
    return {
      succeeded: (userId) => [
        counterDelete(this.db, pair.key),
        ...units.map((unit) => attemptRefund(this.db, unit.key, unit.windowStart)),
        addressRemember(this.db, userId, scope.address, now),
      ],
      cancel: async () => {
        // Put the pair back as it was, unless another attempt has moved it since.
        if (pair.before) await compareAndSetCounter(this.db, pair.key, pair.after, pair.before);
        else
          await compareAndSetCounter(this.db, pair.key, pair.after, { ...pair.after, attempts: 0, blockedUntil: null });
        await refundUnits();
      },
    };
  }

  /** One unit of the address's ceiling across accounts, or 429 until its window ends. */
  private async takeAddress(address: string, now: Date): Promise<CeilingUnit> {
    const key = addressKey(address);
    const windowStart = await countWithinCeiling(this.db, key, now, ADDRESS_WINDOW_MS, ADDRESS_CEILING);
    if (windowStart) return { key, windowStart };
    const counter = await findCounter(this.db, key);
    throw tooManyAttempts(addressWaitMs(counter?.windowStart ?? now, now), 'address');
  }

  private async take(
    key: string,
    decide: (counter: Counter | undefined, now: Date) => Decision,
    now: Date,
    scope: Scope,
  ): Promise<Taken> {
    for (let i = 0; i < MAX_TRIES; i++) {
      const before = await findCounter(this.db, key);
      const decision = decide(before, now);
      if (!decision.allowed) throw tooManyAttempts(decision.retryAfterMs, scope);
      if (await compareAndSetCounter(this.db, key, before, decision.next)) return { key, before, after: decision.next };
    }
    throw tooManyAttempts(1000, scope);
  }

  private async pruneNowAndThen(now: Date): Promise<void> {
    if (Math.abs(now.getTime() - this.lastPrune) < PRUNE_EVERY_MS) return;
    this.lastPrune = now.getTime();
    const idle = Math.max(PAIR_IDLE_RESET_MS, ACCOUNT_WINDOW_MS, ADDRESS_WINDOW_MS);
    await pruneThrottles(this.db, new Date(now.getTime() - idle), new Date(now.getTime() - KNOWN_ADDRESS_TTL_MS));
  }
}
