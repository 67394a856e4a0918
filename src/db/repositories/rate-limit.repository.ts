// Rate-limit budgets shared by the server processes (migration 0012): token buckets that processes
// lease tokens from (src/domain/rate-limits/leased-buckets.ts). Not tenant data: a bucket's
// subject is an API key's id or a client address, never something a workspace can read.
import { sql, type RawBuilder } from 'kysely';
import { compileOnce } from './compiled-query.js';
import type { Executor } from './executor.js';

export interface LeaseRequest {
  scope: string;
  subject: string;
  /** The bucket's size: it never holds more. */
  capacity: number;
  /** Tokens the bucket regains per millisecond. */
  tokensPerMs: number;
  /** Tokens wanted (1 to capacity); fewer are granted when fewer are left. */
  want: number;
  nowMs: number;
}

export interface Lease {
  /** Tokens taken from the bucket: `want`, or 1 when fewer than `want` were left, or 0 when none was. */
  granted: number;
  /** Tokens left in the bucket after the lease. */
  tokens: number;
}

// Parameters are cast: PostgreSQL infers a parameter's type from its neighbour (a rate next to a
// bigint would be read as one); SQLite takes the same names for the same affinities.
const real = (value: unknown) => sql<number>`cast(${value} as double precision)`;
const integer = (value: unknown) => sql<number>`cast(${value} as bigint)`;
/** min and max without the dialects' differing names for them (least/greatest, min/max). */
const smaller = (a: RawBuilder<number>, b: RawBuilder<number>) => sql<number>`case when ${a} < ${b} then ${a} else ${b} end`;
const larger = (a: RawBuilder<number>, b: RawBuilder<number>) => sql<number>`case when ${a} > ${b} then ${a} else ${b} end`;

export function rateLimitRepository(db: Executor) {
  /**
   * One statement, so leases of several processes never interleave: the row is created full
   * (less the grant) or refilled for the time since its last lease (a clock that steps back
   * refills nothing), capped at the capacity, and the grant taken from it. Every SET expression
   * reads the row as it was before the update, on both databases.
   */
  const lease = compileOnce(
    ['scope', 'subject', 'capacity', 'tokensPerMs', 'want', 'nowMs'],
    ({ scope, subject, capacity, tokensPerMs, want, nowMs }: Record<keyof LeaseRequest, unknown>) => {
      const now = integer(nowMs);
      const wanted = integer(want);
      const elapsed = larger(sql<number>`${now} - rate_limit_buckets.updated_ms`, sql<number>`0`);
      const refilled = smaller(sql<number>`rate_limit_buckets.tokens + ${elapsed} * ${real(tokensPerMs)}`, real(capacity));
      const granted = sql<number>`case when ${refilled} >= ${wanted} then ${wanted} when ${refilled} >= 1 then 1 else 0 end`;
      return db
        .insertInto('rate_limit_buckets')
        .values({ scope: scope as string, subject: subject as string, tokens: sql`${real(capacity)} - ${wanted}`, updated_ms: now, last_granted: wanted })
        .onConflict((conflict) => conflict.columns(['scope', 'subject']).doUpdateSet({
          tokens: sql`${refilled} - ${granted}`,
          last_granted: granted,
          updated_ms: larger(now, sql<number>`rate_limit_buckets.updated_ms`),
        }))
        .returning(['last_granted as granted', 'tokens']);
    },
  );

  return {
    /** Takes up to `want` tokens from the bucket; see Lease. */
    async lease(request: LeaseRequest, tx: Executor = db): Promise<Lease> {
      const [row] = await lease(tx, request);
      return { granted: Number(row.granted), tokens: Number(row.tokens) };
    },
  };
}

export type RateLimitRepository = ReturnType<typeof rateLimitRepository>;
