// The rate limiter's own cost (src/domain/rate-limits/), apart from the noise of whole requests on
// a shared machine: takes answered from memory (SQLite's buckets, and leased tokens), the lease
// itself (the one statement that writes), and refusals once a bucket is empty. The leased buckets
// run on the database given, as every PostgreSQL server process runs them.
//   node --import ./test/helpers/typescript-hooks.mjs bench/rate-limits.ts [--db sqlite|postgres] [takes]
import { createDatabase } from '../src/db/database.js';
import { rateLimitRepository, type RateLimitRepository } from '../src/db/repositories/rate-limit.repository.js';
import { createLeasedBuckets } from '../src/domain/rate-limits/leased-buckets.js';
import { createMemoryBuckets } from '../src/domain/rate-limits/memory-buckets.js';
import type { RateLimiter } from '../src/domain/rate-limits/token-bucket.js';
import { systemClock } from '../src/lib/clock.js';
import type { BenchDb } from './args.js';
import { databaseFactory } from './databases.js';

const args = process.argv.slice(2);
const dbFlag = args.indexOf('--db');
const db = (dbFlag >= 0 ? args.splice(dbFlag, 2)[1] : 'sqlite') as BenchDb;
const TAKES = Number(args[0] ?? 1_000_000);
const LEASES = Math.max(10, Math.min(2000, Math.round(TAKES / 500)));
/** The leased bucket's size, of which leases take 1 %; its takes stop short of emptying it. */
const BUDGET = 100_000;
const LEASED_TAKES = Math.min(TAKES, BUDGET * 0.9);

/** Mean µs per take of `takes` takes of one subject, awaiting only the takes that had to lease. */
async function timeTakes(limiter: RateLimiter, takes: number): Promise<{ usPerTake: number; allowed: number }> {
  let allowed = 0;
  const started = performance.now();
  for (let i = 0; i < takes; i++) {
    const taken = limiter.take('bench');
    if ((taken instanceof Promise ? await taken : taken).allowed) allowed++;
  }
  return { usPerTake: ((performance.now() - started) * 1000) / takes, allowed };
}

function counting(repository: RateLimitRepository): RateLimitRepository & { leases: number } {
  const counted = {
    leases: 0,
    lease: (request: Parameters<RateLimitRepository['lease']>[0]) => {
      counted.leases++;
      return repository.lease(request);
    },
  };
  return counted;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

const factory = await databaseFactory(db);
try {
  const database = createDatabase(await factory.fresh('rate_limits'));
  await database.migrate();
  const repository = rateLimitRepository(database.db);

  const memory = await timeTakes(createMemoryBuckets({ perMinute: TAKES * 2, clock: systemClock }), TAKES);
  process.stdout.write(`in memory (SQLite's buckets): ${TAKES} takes, ${memory.usPerTake.toFixed(3)} µs a take\n`);

  const counted = counting(repository);
  const leased = await timeTakes(createLeasedBuckets({ scope: 'bench', perMinute: BUDGET, clock: systemClock, buckets: counted }), LEASED_TAKES);
  process.stdout.write(
    `leased (${db}, budget ${BUDGET}/min): ${LEASED_TAKES} takes, ${leased.allowed} allowed, ${counted.leases} leases, ${leased.usPerTake.toFixed(3)} µs a take, leases included\n`,
  );

  const roundTrips: number[] = [];
  for (let i = 0; i < LEASES; i++) {
    const started = performance.now();
    await repository.lease({ scope: 'bench', subject: 'round-trip', capacity: 1e12, tokensPerMs: 1, want: 1000, nowMs: Date.now() });
    roundTrips.push((performance.now() - started) * 1000);
  }
  roundTrips.sort((a, b) => a - b);
  process.stdout.write(`one lease (${db}): ${LEASES} in a row, p50 ${percentile(roundTrips, 0.5).toFixed(0)} µs, p99 ${percentile(roundTrips, 0.99).toFixed(0)} µs\n`);

  const refusing = counting(repository);
  const limiter = createLeasedBuckets({ scope: 'bench-empty', perMinute: 60, clock: systemClock, buckets: refusing });
  await timeTakes(limiter, 60);
  const leasesBefore = refusing.leases;
  const refused = await timeTakes(limiter, TAKES);
  process.stdout.write(
    `refused (${db}, an empty bucket): ${TAKES - refused.allowed} of ${TAKES} takes refused, ${refusing.leases - leasesBefore} leases, ${refused.usPerTake.toFixed(3)} µs a take\n`,
  );
  await database.close();
} finally {
  factory.dispose();
}
