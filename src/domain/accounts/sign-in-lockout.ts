// 10 failed sign-ins of one email within 15 minutes lock that email for 15 minutes (platform.md
// §5). Failures live in the database, so every process counts the same ones. While an email is
// locked its attempts are refused unchecked and not recorded, so the lock ends on time and the
// count starts afresh after it. Unknown emails lock like known ones: a lock says nothing about
// whether an account exists.
import type { SignInFailureRepository } from '../../db/repositories/sign-in-failure.repository.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';

export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_MS = 15 * 60_000;

/** A 429 `forbidden`, with Retry-After: the seconds until the lock ends. */
const locked = (seconds: number) =>
  new AppError('forbidden', `too many failed sign-ins for this email: try again in ${Math.ceil(seconds / 60)} min`, {
    status: 429, headers: { 'Retry-After': String(seconds) },
  });

/**
 * When a lock over these failure times (ascending) ends: the latest failure that was the 10th
 * within 15 minutes started it. 0 when none did.
 */
export function lockedUntil(failures: readonly string[]): number {
  const times = failures.map((time) => Date.parse(time));
  let start = 0;
  let until = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end] - times[start] >= LOCKOUT_WINDOW_MS) start++;
    if (end - start + 1 >= LOCKOUT_FAILURES) until = times[end] + LOCKOUT_MS;
  }
  return until;
}

export function createSignInLockout({ signInFailures, clock }: { signInFailures: SignInFailureRepository; clock: Clock }) {
  const at = (ms: number) => new Date(ms).toISOString();

  return {
    /** Throws a 429 while the email is locked. */
    async check(email: string): Promise<void> {
      const nowMs = Date.parse(clock.now());
      const until = lockedUntil(await signInFailures.since(email, at(nowMs - LOCKOUT_WINDOW_MS - LOCKOUT_MS)));
      if (until > nowMs) throw locked(Math.ceil((until - nowMs) / 1000));
    },

    async recordFailure(email: string): Promise<void> {
      const now = clock.now();
      await signInFailures.record({ id: newId(), email, failed_at: now });
      await signInFailures.purgeBefore(at(Date.parse(now) - LOCKOUT_WINDOW_MS - LOCKOUT_MS));
    },

    /** A successful sign-in starts the count afresh. */
    clear: (email: string) => signInFailures.clear(email),
  };
}

export type SignInLockout = ReturnType<typeof createSignInLockout>;
