/** A clock the browser tests can move forward: real time plus an offset (only with TEST_CLOCK=manual, NODE_ENV=test). */
export interface ClockControl {
  clock: () => Date;
  /** Moves the clock forward; never back, so server times stay in order. */
  advance(ms: number): void;
}

export function createOffsetClock(base: () => Date = () => new Date()): ClockControl {
  let offsetMs = 0;
  return {
    clock: () => new Date(base().getTime() + offsetMs),
    advance(ms) {
      offsetMs += Math.max(0, ms);
    },
  };
}
