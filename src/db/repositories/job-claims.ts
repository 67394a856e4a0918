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

/**
 * Claims up to `limit` due jobs of `kind` from `table`, reading `columns` (which include `id`), in
 * one statement (atomic without a transaction of its own): the due ones chosen oldest first, run
 * in the order of their ids (each table's ids are UUIDv7: the order they were asked for in).
 */
export async function claimDueJobs<Row extends { id: string }>(
  dialect: Pick<Dialect, 'forUpdateSkipLocked'>,
  tx: Executor,
  table: JobTable,
  columns: readonly (keyof Row & string)[],
  { kind, now, leaseUntil, limit }: ClaimWindow,
): Promise<(Row & { next_attempt_at: string })[]> {
  // Both tables have these columns; Kysely's types cannot see that through a union of table names.
  const jobs = tx as Kysely<any>;
  const due = dialect.forUpdateSkipLocked(jobs
    .selectFrom(table)
    .select('id')
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at', 'asc')
    .orderBy('id', 'asc')
    .limit(limit));
  const rows = (await jobs.updateTable(table).set({ next_attempt_at: leaseUntil }).where('id', 'in', due).returning(columns).execute()) as unknown as Row[];
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((row) => ({ ...row, next_attempt_at: leaseUntil }));
}
