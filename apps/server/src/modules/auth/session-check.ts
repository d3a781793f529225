import { AppError, unauthenticated } from '../../lib/errors.js';

// A request's session check, possibly folded into the route's first statement
// (docs/decisions/0058-session-check-folded.md). On PostgreSQL the session row is read on every request (no
// cache: revocation must take effect at once in every process, 0040). Routes whose service reads the
// participant's rows anyway (the journey's facts, the chat thread) let that statement read the session too:
// the guard leaves the check pending, the statement settles it before anything is written, and the route
// finishes it (an explicit read) if no statement did.

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please log in again.';
export const TOTP_ENROLMENT_MESSAGE =
  'Two-factor authentication is required for this account: set it up on the Security page first.';

/** What a folded statement must check: the session row's id and the time it must still be active at. */
export interface SessionProbe {
  sessionId: string;
  /** ISO time (the app's clock when the request was authenticated). */
  now: string;
}

/** An active session's one fact the guards need: two-factor enrolment still pending. */
export interface ActiveSession {
  restricted: boolean;
}

/** Refuses a session that is not active (401) or waits for two-factor enrolment (403). */
export function assertActive(session: ActiveSession | undefined): asserts session is ActiveSession {
  if (!session) throw unauthenticated(SESSION_ENDED_MESSAGE);
  if (session.restricted) throw new AppError(403, 'TOTP_ENROLMENT_REQUIRED', TOTP_ENROLMENT_MESSAGE);
}

export class SessionCheck {
  private pending: SessionProbe | null;
  private finished = false;

  constructor(
    probe: SessionProbe | null,
    /** The explicit read, for a check no statement settled. */
    private readonly read: (probe: SessionProbe) => Promise<ActiveSession | undefined>,
    /** What waits for an accepted session (the monitor's last seen). */
    private readonly onAccepted: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.pending = probe;
  }

  /** A check the guard already made (SQLite's cached check, or a route that does not fold). */
  static done(onAccepted?: () => Promise<void>): SessionCheck {
    return new SessionCheck(null, () => Promise.reject(new Error('a settled session check reads nothing')), onAccepted);
  }

  /** What a statement should check, or null when the session is already accepted. */
  get probe(): SessionProbe | null {
    return this.pending;
  }

  /**
   * Settles the check with what a statement read for `probe` (undefined: no active session). Throws 401 or
   * 403 if refused; call it before the request writes anything.
   */
  settle(session: ActiveSession | undefined): void {
    if (!this.pending) return;
    assertActive(session);
    this.pending = null;
  }

  /**
   * Ends the check: reads the session if no statement settled it (a route whose service did not reach its
   * folded read, e.g. a 404 before it), then runs what waits for an accepted session. Only the first call
   * does anything.
   */
  async finish(): Promise<void> {
    if (this.finished) return;
    if (this.pending) this.settle(await this.read(this.pending));
    this.finished = true;
    await this.onAccepted();
  }
}
