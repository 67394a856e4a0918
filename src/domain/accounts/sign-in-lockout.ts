// 10 failed sign-ins of one email within 15 minutes lock that email for 15 minutes. Each attempt
// is counted before its password is checked, in a transaction holding the email's lock (a
// PostgreSQL advisory lock; on SQLite a transaction excludes every other), and the attempts live in
// the database: so no burst, however parallel and over however many processes, gets more than 10
// passwords checked per 15 minutes. An attempt whose password proves right is withdrawn; the others
// stay as failures. A success does not wipe the earlier failures: a burst that contains the right
// password must not buy itself another 10 tries. While an email is locked its attempts are refused
// unchecked and not recorded, so the lock ends on time. Unknown emails lock like known ones: a
// lock says nothing about whether an account exists. Sign-in, taking an invitation as an existing
// account and changing a password all count here.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { SignInFailureRepository } from '../../db/repositories/sign-in-failure.repository.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';

export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_MS = 15 * 60_000;
/** How long a failure can matter: within a window whose lock is still running. */
export const LOCKOUT_MEMORY_MS = LOCKOUT_WINDOW_MS + LOCKOUT_MS;

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

/** An attempt counted before its password is checked. */
export interface SignInAttempt {
  id: string;
  /** Whether this attempt, should its password be wrong, is the failure that locks the email (the audit log's `auth.locked_out`). */
  locksOnFailure: boolean;
}

export interface SignInLockoutDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  signInFailures: SignInFailureRepository;
  clock: Clock;
}

export function createSignInLockout({ db, dialect, signInFailures, clock }: SignInLockoutDeps) {
  return {
    /**
     * Counts an attempt for the email before its password is checked: a 429 while the email is
     * locked (the attempt is not recorded), else the attempt, recorded as a failure until
     * `succeeded` withdraws it. Attempts of an email are counted one at a time, so exactly one
     * attempt is the one whose failure starts a lock.
     */
    async attempt(email: string): Promise<SignInAttempt> {
      return db.transaction().execute(async (tx) => {
        await dialect.lockKeyInTransaction(tx, `sign-in:${email}`);
        const now = clock.now();
        const nowMs = Date.parse(now);
        const failures = await signInFailures.since(email, new Date(nowMs - LOCKOUT_MEMORY_MS).toISOString(), tx);
        const until = lockedUntil(failures);
        if (until > nowMs) throw locked(Math.ceil((until - nowMs) / 1000));
        const id = newId();
        await signInFailures.record({ id, email, failed_at: now }, tx);
        return { id, locksOnFailure: lockedUntil([...failures, now]) > nowMs };
      });
    },

    /** The attempt's password was right: it was no failure. */
    succeeded: (attempt: SignInAttempt) => signInFailures.withdraw(attempt.id),
  };
}

export type SignInLockout = ReturnType<typeof createSignInLockout>;
