// Loading the `auto` provider's model without holding up the server: one attempt now and, after
// each failure, another after a delay that doubles (up to an hour), until one succeeds or the
// server stops. Nothing here is ever fatal.

export const MAX_RETRY_MS = 60 * 60 * 1000;

/** The wait after the `failures`-th failure in a row: firstMs, then twice as long each time, at most an hour. */
export const retryDelay = (firstMs: number, failures: number): number =>
  Math.min(firstMs * 2 ** (failures - 1), Math.max(firstMs, MAX_RETRY_MS));

export interface BackgroundLoad {
  /** Whether the first attempt loaded the model (it has then been handed to `loaded`). */
  readonly firstAttempt: Promise<boolean>;
  /** No attempt starts after this, and one in flight is not handed to `loaded`. */
  stop(): void;
}

export interface BackgroundLoadOptions {
  attempt(): Promise<unknown>;
  firstRetryMs: number;
  loaded(): void;
  /** Called once per failed attempt, with the wait before the next one. */
  failed(error: unknown, retryInMs: number): void;
}

export function loadInBackground({ attempt, firstRetryMs, loaded, failed }: BackgroundLoadOptions): BackgroundLoad {
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  async function tryOnce(): Promise<boolean> {
    try {
      await attempt();
    } catch (error) {
      if (stopped) return false;
      const wait = retryDelay(firstRetryMs, ++failures);
      failed(error, wait);
      // The retry alone must not keep the process alive.
      timer = setTimeout(() => void tryOnce(), wait).unref();
      return false;
    }
    if (stopped) return false;
    loaded();
    return true;
  }

  return {
    firstAttempt: tryOnce(),
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
