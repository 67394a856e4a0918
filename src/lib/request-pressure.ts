// Whether requests are keeping this process's event loop saturated, for background work that
// should yield to them (the webhook dispatcher: docs/events.md, "Yielding to requests"). Two
// signals over the last window must agree: the event-loop utilisation (the share of wall time the
// loop spent running callbacks) is high, and requests took at least half of the window: the time
// each was in flight, from its arrival to its end, summed. On SQLite a request runs from start to
// end in one go, so that sum is about the loop's time spent on requests; a request that waited
// for the loop before it was read is not counted while it waited. A loop kept busy by background
// work, a backlog drained with a trickle of requests or none, is then not saturated by requests:
// those requests are few and short, and yielding would only slow the backlog down.
import { performance, type EventLoopUtilityFunction } from 'node:perf_hooks';

/** Utilisation from which the loop counts as saturated. */
export const SATURATED_UTILISATION = 0.8;
/** The requests' time in flight, summed, as a share of the window, from which they count as occupying the loop. */
export const OCCUPYING_SHARE = 0.5;
/** The window utilisation is measured over: long enough to smooth single slow callbacks. */
const WINDOW_MS = 100;

export interface RequestPressure {
  /** The HTTP server calls this for every request it receives… */
  requestStarted(): void;
  /** …and this once its response is finished or abandoned. */
  requestEnded(): void;
  /** Requests received and not yet ended (GET /metrics reports it). */
  requestsInFlight(): number;
  /** Whether, over the last window, the loop was at least 80 % busy and requests were in flight for half of it. */
  saturated(): boolean;
}

export function createRequestPressure(
  utilisation: EventLoopUtilityFunction = performance.eventLoopUtilization,
  now: () => number = () => performance.now(),
): RequestPressure {
  let since = utilisation();
  let windowStart = now();
  let saturated = false;
  // Requests in flight, and their count integrated over the window's time so far (request-ms).
  let inFlight = 0;
  let requestMs = 0;
  let countedUntil = windowStart;
  const count = (at: number) => {
    requestMs += inFlight * (at - countedUntil);
    countedUntil = at;
  };
  return {
    requestStarted() {
      count(now());
      inFlight++;
    },
    requestEnded() {
      count(now());
      inFlight--;
    },
    requestsInFlight: () => inFlight,
    saturated() {
      const at = now();
      if (at - windowStart >= WINDOW_MS) {
        count(at);
        const current = utilisation();
        const occupied = requestMs / (at - windowStart) >= OCCUPYING_SHARE;
        saturated = occupied && utilisation(current, since).utilization >= SATURATED_UTILISATION;
        since = current;
        windowStart = at;
        requestMs = 0;
      }
      return saturated;
    },
  };
}
