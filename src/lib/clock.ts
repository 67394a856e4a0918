/** The source of time for everything written; injectable so tests can pin it. */
export interface Clock {
  /** ISO 8601 in UTC with milliseconds and `Z`. */
  now(): string;
}

export const systemClock: Clock = { now: () => new Date().toISOString() };
