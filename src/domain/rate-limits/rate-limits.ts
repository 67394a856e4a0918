// Rate limits as token buckets keyed by anything: an API key, a client address and widget key
// (token-bucket.ts). Where one process owns the database (SQLite) the buckets live in its memory
// (memory-buckets.ts); where several processes share it (PostgreSQL) they share each budget through
// the database, leasing tokens in chunks so that most requests write nothing (leased-buckets.ts;
// docs/reliability.md, "Many processes"). Which one is the dialect's capability, not its name.
import type { RateLimitRepository } from '../../db/repositories/rate-limit.repository.js';
import type { Clock } from '../../lib/clock.js';
import { createLeasedBuckets } from './leased-buckets.js';
import { createMemoryBuckets } from './memory-buckets.js';
import type { RateLimiter } from './token-bucket.js';

export interface RateLimitDeps {
  clock: Clock;
  /** The shared budgets, where several processes serve the database; null: each process counts alone. */
  sharedBuckets: RateLimitRepository | null;
}

export function createRateLimits({ clock, sharedBuckets }: RateLimitDeps) {
  return {
    /** The limiter of one kind of request (`scope`, e.g. 'api'), `perMinute` per subject. */
    limiter(scope: string, perMinute: number): RateLimiter {
      return sharedBuckets
        ? createLeasedBuckets({ scope, perMinute, clock, buckets: sharedBuckets })
        : createMemoryBuckets({ perMinute, clock });
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
