// The bench's own access to a database under test: migrating and seeding it before a server
// starts, and waiting, next to a running server, until the work seeding left it is done.
import { sql } from 'kysely';
import { DATABASE_DEFAULTS } from '../src/config.js';
import { createDatabase, type DatabaseHandle } from '../src/db/database.js';

/** Runs fn on the migrated database, closing it after. */
export async function withDatabase<T>(url: string, fn: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = createDatabase(url);
  try {
    await database.migrate();
    return await fn(database);
  } finally {
    await database.close();
  }
}

/**
 * The seeded conversations folded into their search documents, as a server folds a conversation
 * once it is quiet: at once, where the server's fold jobs took it one conversation at a time
 * (20 s at 10k on SQLite, each rewriting the index for its messages); the jobs seeding queued then
 * find nothing to fold. And statistics as a running database would have them after a fresh load:
 * a running PostgreSQL's autovacuum analyzes freshly loaded tables within minutes (without
 * statistics its planner sorts whole tables) and vacuums them, which sets the visibility map that
 * lets an index-only scan (a deep page's ids) skip the table; SQLite never analyzes by itself, so
 * it is measured as deployed, without them.
 */
export async function asDeployed(database: DatabaseHandle): Promise<void> {
  await database.db.transaction().execute((tx) => database.dialect.fullText.foldAll(tx));
  if (database.dialect.name === 'postgres') await sql`vacuum (analyze)`.execute(database.db);
}

/**
 * Waits until the server has fanned out the events recorded without it (tens of thousands by
 * seeding at 10k, or by the floor's writes), run the rules they planned, posted the release announcements they planned and
 * summarized and triaged the seeded conversations: work that would otherwise land in the next
 * scenarios measured.
 */
export async function backlogDone(url: string): Promise<void> {
  // Reads only, on a read-only connection: a SQLite connection that may write refreshes the planner's
  // statistics as it opens (PRAGMA optimize), and a write there while the server's transaction moves
  // from reading to writing fails that request with SQLITE_BUSY (a 500 the bench saw).
  const { db, close } = createDatabase(url, { ...DATABASE_DEFAULTS, readOnly: true });
  try {
    const count = async (query: Promise<{ n: number | string | bigint }>) => Number((await query).n);
    for (;;) {
      const events = await count(db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).where('fanned_out_at', 'is', null).executeTakeFirstOrThrow());
      const jobs = await count(db.selectFrom('announcement_jobs').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow());
      // The seeded conversations' summaries and triage: measured apart (bench/summary-latency.ts), not under the scenarios.
      // Folds due after the run (BENCH_SEARCH_FOLD_MS) are not waited for; those seeding left are due at once.
      const conversationJobs = await count(db.selectFrom('conversation_jobs').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'pending')
        .where((eb) => eb.or([eb('kind', '<>', 'search'), eb('next_attempt_at', '<=', new Date().toISOString())])).executeTakeFirstOrThrow());
      // Rules run after a write commits: their jobs are the write's work too (bench/rules-cost.ts).
      const ruleJobs = await count(db.selectFrom('automation_jobs').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow());
      if (events === 0 && jobs === 0 && conversationJobs === 0 && ruleJobs === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await close();
  }
}
