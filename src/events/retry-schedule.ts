// The retry schedule of webhook deliveries (docs/events.md, "Delivery"), shared with the release
// announcer's emails and the conversation jobs: what state an attempt leaves a delivery or a job
// in, and the jitter of each wait.
import type { DeliveryOutcome } from '../db/repositories/webhook-delivery.repository.js';
import type { AttemptResult } from './webhook-sender.js';

/** Retries wait up to 10 % longer than the schedule says, so receivers are not hit in lockstep. */
const JITTER = 0.1;

const iso = (ms: number) => new Date(ms).toISOString();

/** A retry's wait with its jitter: up to 10 % longer than the schedule says. */
export const jittered = (waitMs: number, random: () => number = Math.random): number => Math.round(waitMs * (1 + JITTER * random()));

/**
 * A delivery's state after attempt number `attempts`: succeeded; pending again after the
 * schedule's wait for that attempt (plus jitter); or failed once the schedule is used up.
 */
export function outcomeAfter(
  attempts: number, result: AttemptResult, nowMs: number, scheduleMs: readonly number[], random: () => number = Math.random,
): DeliveryOutcome {
  const recorded = { attempts, last_status_code: result.statusCode, last_error: result.error, updated_at: iso(nowMs) };
  if (result.ok) return { ...recorded, status: 'succeeded', next_attempt_at: null };
  const wait = scheduleMs[attempts - 1];
  if (wait === undefined) return { ...recorded, status: 'failed', next_attempt_at: null };
  return { ...recorded, status: 'pending', next_attempt_at: iso(nowMs + jittered(wait, random)) };
}

/** A background job's state after a failed run: due again (pending) at a time, or given up (failed). */
export interface JobRetry {
  status: 'pending' | 'failed';
  attempts: number;
  last_error: string;
  next_attempt_at: string | null;
  updated_at: string;
}

/**
 * A job's state after a failed run number `attempts`: due again after the schedule's wait for that
 * attempt and, once the schedule is used up, after its last wait every time; `failed` only when
 * `giveUp` (retrying cannot help, or the caller's attempts are used up).
 */
export function retryOutcome(attempts: number, error: string, giveUp: boolean, nowMs: number, scheduleMs: readonly number[], random: () => number = Math.random): JobRetry {
  const recorded = { attempts, last_error: error, updated_at: iso(nowMs) };
  if (giveUp) return { ...recorded, status: 'failed', next_attempt_at: null };
  const wait = scheduleMs[Math.min(attempts, scheduleMs.length) - 1] ?? 0;
  return { ...recorded, status: 'pending', next_attempt_at: iso(nowMs + jittered(wait, random)) };
}
