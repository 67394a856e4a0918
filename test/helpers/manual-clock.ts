import type { Clock } from '../../src/lib/clock.js';

/** A clock that stands still until a test moves it, for rate-limit refills and 24 h expiry. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export function manualClock(startIso = '2026-11-21T10:00:00.000Z'): ManualClock {
  let nowMs = Date.parse(startIso);
  return {
    now: () => new Date(nowMs).toISOString(),
    advance: (ms) => {
      nowMs += ms;
    },
  };
}
