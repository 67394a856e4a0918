// Claiming due jobs with a lease, the same way for every job table (release announcements, reply mail,
// conversation jobs): the due pending rows of a kind, oldest first, locked against other
// processes' claims (FOR UPDATE SKIP LOCKED on PostgreSQL), their due time pushed to the lease's
// end, so no other claim sees them until then and a dead process's job falls due again by itself.
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import type { Executor } from './executor.js';

type JobTable = 'announcement_jobs' | 'conversation_jobs' | 'email_jobs' | 'notification_mails' | 'automation_jobs';

export interface ClaimWindow {
  kind: string;
  now: string;
  leaseUntil: string;
  limit: number;
}

/** Claims up to `limit` due jobs of `kind` from `table`, reading `columns` (which include `id`). */
export async function claimDueJobs<Row extends { id: string }>(
  dialect: Pick<Dialect, 'forUpdateSkipLocked'>,
  tx: Executor,
  table: JobTable,
  columns: readonly (keyof Row & string)[],
  { kind, now, leaseUntil, limit }: ClaimWindow,
): Promise<(Row & { next_attempt_at: string })[]> {
  // Both tables have these columns; Kysely's types cannot see that through a union of table names.
  const jobs = tx as Kysely<any>;
  const query = jobs
    .selectFrom(table)
    .select(columns)
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at', 'asc')
    .orderBy('id', 'asc')
    .limit(limit);
  const rows = (await dialect.forUpdateSkipLocked(query).execute()) as unknown as Row[];
  if (rows.length === 0) return [];
  await jobs.updateTable(table).set({ next_attempt_at: leaseUntil }).where('id', 'in', rows.map((row) => row.id)).execute();
  return rows.map((row) => ({ ...row, next_attempt_at: leaseUntil }));
}
