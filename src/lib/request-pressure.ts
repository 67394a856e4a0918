// Whether requests are keeping this process's event loop saturated, for background work that
// should yield to them (the webhook dispatcher: docs/events.md, "Yielding to requests"). The
// signal is the event-loop utilisation (the share of wall time the loop spent running callbacks)
// over the last window, counted only while requests arrive: a loop kept busy by the background
// work alone, draining a backlog with no request to serve, is not saturated by requests.
import { performance, type EventLoopUtilityFunction } from 'node:perf_hooks';

/** Utilisation from which the loop counts as saturated. */
export const SATURATED_UTILISATION = 0.8;
/** The window utilisation is measured over: long enough to smooth single slow callbacks. */
const WINDOW_MS = 100;

export interface RequestPressure {
  /** The HTTP server calls this for every request it receives. */
  requestArrived(): void;
  /** Whether, over the last window, requests arrived and the loop was at least 80 % busy. */
  saturated(): boolean;
}

export function createRequestPressure(
  utilisation: EventLoopUtilityFunction = performance.eventLoopUtilization,
  now: () => number = () => performance.now(),
): RequestPressure {
  let requests = 0;
  let since = utilisation();
  let windowStart = now();
  let saturated = false;
  return {
    requestArrived() {
      requests++;
    },
    saturated() {
      if (now() - windowStart >= WINDOW_MS) {
        const current = utilisation();
        saturated = requests > 0 && utilisation(current, since).utilization >= SATURATED_UTILISATION;
        since = current;
        windowStart = now();
        requests = 0;
      }
      return saturated;
    },
  };
}
