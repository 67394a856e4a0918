// Waits between retries: doubling from `initial` up to `max`, each with up to half of it taken off
// at random, so that widgets cut off together do not all come back in the same second.

export interface Backoff {
  initial: number;
  max: number;
}

export const RETRY: Backoff = { initial: 1000, max: 30_000 };

export function backoffDelay(attempt: number, { initial, max }: Backoff = RETRY, random = Math.random): number {
  const ceiling = Math.min(max, initial * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** Resolves after `ms`, or as soon as the browser says it is back online, or when `signal` aborts. */
export function waitToRetry(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener('online', done);
    signal?.addEventListener('abort', done);
  });
}
