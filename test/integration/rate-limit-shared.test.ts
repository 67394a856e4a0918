// Rate-limit budgets shared through the database (src/domain/rate-limits/leased-buckets.ts), as the
// server processes of one PostgreSQL database use them: two limiters on one database stand for two
// processes. Run on both databases: the lease is one statement that both must compute alike. The
// same behaviour through HTTP with four real processes: test/reliability/shared-limits.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { rateLimitRepository, type RateLimitRepository } from '../../src/db/repositories/rate-limit.repository.js';
import { createRateLimits } from '../../src/domain/rate-limits/rate-limits.js';
import type { RateDecision } from '../../src/domain/rate-limits/token-bucket.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { manualClock } from '../helpers/manual-clock.js';

const clock = manualClock();

/** A "process": its own limiter over the shared database, counting the leases it sends. */
function processOf(database: DatabaseHandle, perMinute: number) {
  const repository = rateLimitRepository(database.db);
  const counted: RateLimitRepository & { leases: number } = {
    leases: 0,
    lease(request) {
      counted.leases++;
      return repository.lease(request);
    },
  };
  const limiter = createRateLimits({ clock, sharedBuckets: counted }).limiter('api', perMinute);
  return { take: async (subject: string): Promise<RateDecision> => limiter.take(subject), counted };
}

async function allowedOf(decisions: Promise<RateDecision>[]): Promise<number> {
  return (await Promise.all(decisions)).filter((decision) => decision.allowed).length;
}

for (const dialect of DIALECTS) {
  describe(`shared rate-limit budgets [${dialect}]`, () => {
    let database: DatabaseHandle;
    let subjects = 0;
    const subject = () => `key-${++subjects}`;
    before(async () => {
      database = createDatabase(await freshDatabaseUrl(dialect));
      await database.migrate();
    });
    after(() => database.close());

    it('gives a subject one budget across processes: 600 a minute spread over two allow 600, not 1,200', async () => {
      const [first, second] = [processOf(database, 600), processOf(database, 600)];
      const key = subject();
      let allowed = 0;
      for (let i = 0; i < 1200; i++) if ((await (i % 2 ? first : second).take(key)).allowed) allowed++;
      assert.equal(allowed, 600);
      const refused = await first.take(key);
      assert.deepEqual({ ...refused }, { allowed: false, limit: 600, remaining: 0, resetSeconds: 60, retryAfter: 1 });
      clock.advance(1000);
      assert.equal(await allowedOf(Array.from({ length: 20 }, (_, i) => (i % 2 ? first : second).take(key))), 10, 'then 10 a second');
    });

    it('writes once per lease of 1 % of the budget, not per request', async () => {
      const one = processOf(database, 60_000);
      const key = subject();
      for (let i = 0; i < 3000; i++) assert.ok((await one.take(key)).allowed);
      assert.equal(one.counted.leases, 5, '3,000 requests, leases of 600');
    });

    it('remembers an empty bucket until it will hold a token again, so refused requests write nothing', async () => {
      const one = processOf(database, 60);
      const key = subject();
      assert.equal(await allowedOf(Array.from({ length: 100 }, () => one.take(key))), 60);
      const leases = one.counted.leases;
      for (let i = 0; i < 100; i++) assert.equal((await one.take(key)).retryAfter, 1);
      assert.equal(one.counted.leases, leases);
      clock.advance(1000);
      assert.ok((await one.take(key)).allowed);
      assert.equal(one.counted.leases, leases + 1);
    });

    it('sends one lease for the requests that arrive together while it is in flight', async () => {
      const one = processOf(database, 6000);
      assert.equal(await allowedOf(Array.from({ length: 50 }, () => one.take(subject()))), 50, '50 subjects: 50 leases');
      const key = subject();
      const leases = one.counted.leases;
      assert.equal(await allowedOf(Array.from({ length: 50 }, () => one.take(key))), 50);
      assert.equal(one.counted.leases, leases + 1);
    });

    it('refills the shared bucket for the time since its last lease, never beyond its size', async () => {
      const [first, second] = [processOf(database, 120), processOf(database, 120)];
      const key = subject();
      assert.equal(await allowedOf(Array.from({ length: 200 }, (_, i) => (i % 2 ? first : second).take(key))), 120);
      clock.advance(30_000);
      assert.equal(await allowedOf(Array.from({ length: 200 }, (_, i) => (i % 2 ? first : second).take(key))), 60, 'half a minute: half the budget');
      clock.advance(10 * 60_000);
      assert.equal(await allowedOf(Array.from({ length: 200 }, (_, i) => (i % 2 ? first : second).take(key))), 120, 'ten minutes: full, no more');
    });
  });
}
