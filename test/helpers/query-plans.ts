// What the query-plan test needs: every statement a real request sends (captured through Kysely's
// log), and a verdict on each one's plan. A plan is refused when it walks a table that grows with
// use: a full scan (SQLite's SCAN, PostgreSQL's Seq Scan even with sequential scans disabled, i.e.
// no index can serve the query), or a walk of a whole workspace's rows (SQLite's SEARCH on
// workspace_id alone) that no LIMIT bounds: that is how the conversation detail once walked every
// issue of the workspace to find the few linked to it.
import { CompiledQuery, Kysely, sql, type LogEvent } from 'kysely';
import { DATABASE_DEFAULTS } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { dialectFor } from '../../src/db/dialect.js';
import type { Database } from '../../src/db/schema.js';

/** Tables whose rows grow with use; the others grow with the team (members, products, keys, endpoints). */
export const GROWING_TABLES = new Set([
  'issues', 'conversations', 'messages', 'contacts', 'events', 'webhook_deliveries', 'issue_conversations', 'release_issues',
  'releases', 'issue_api_sources', 'issue_embeddings', 'sign_in_failures', 'sessions', 'widget_sessions', 'idempotency_records',
  'used_challenges', 'announcement_jobs', 'conversation_jobs', 'idea_upvotes', 'invitations', 'record_tags', 'suggestions',
  'email_jobs', 'attachments', 'search_documents', 'articles', 'sla_clocks', 'help_events',
]);

export interface CapturedQuery {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * A database handle whose every statement is recorded: in `captured` the distinct SQL texts (first
 * parameters kept), in `sent` every statement in the order sent (transaction control aside).
 */
export function capturingDatabase(url: string, base: DatabaseHandle): DatabaseHandle & { captured: Map<string, CapturedQuery>; sent: string[] } {
  const captured = new Map<string, CapturedQuery>();
  const sent: string[] = [];
  const { kysely } = dialectFor(url, DATABASE_DEFAULTS);
  const log = (event: LogEvent) => {
    if (event.level !== 'query') return;
    sent.push(event.query.sql);
    if (!captured.has(event.query.sql)) captured.set(event.query.sql, { sql: event.query.sql, parameters: event.query.parameters });
  };
  const db = new Kysely<Database>({ dialect: kysely, log });
  return { ...base, db, captured, sent, close: () => db.destroy() };
}

/** Statements worth a plan: reads, updates and deletes (inserts of values, locks and transaction control are not). */
export const isPlannable = (text: string): boolean =>
  /^\s*(select|update|delete|with)\b/i.test(text) && !/pg_advisory|pg_notify|^\s*select 1\s*$/i.test(text);

/** alias → table, from `"table" as "alias"` in the SQL (a table without alias stands for itself). */
function aliases(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const [, table, alias] of text.matchAll(/"(\w+)" as "(\w+)"/g)) map.set(alias, table);
  return map;
}

/** The problems of one SQLite plan (EXPLAIN QUERY PLAN rows' details). */
export function sqlitePlanProblems(text: string, details: readonly string[]): string[] {
  const names = aliases(text);
  const tableOf = (name: string) => names.get(name) ?? name;
  // A page (LIMIT) walks at most its offset and size, in index order; deep offsets are the
  // benchmark's business. A page's total counts every matching row by the contract, with whatever
  // plan the statistics make cheapest (with one workspace, a scan).
  if (/\blimit\b/i.test(text) || /^\s*select count\(\*\)/i.test(text)) return details.flatMap((detail) => {
    const scan = /^SCAN (\w+)$/.exec(detail);
    return scan && GROWING_TABLES.has(tableOf(scan[1])) && !/count\(\*\)/i.test(text) ? [`full scan of ${tableOf(scan[1])}: ${detail}`] : [];
  });
  const problems: string[] = [];
  for (const detail of details) {
    const scan = /^SCAN (\w+)/.exec(detail);
    if (scan && GROWING_TABLES.has(tableOf(scan[1]))) problems.push(`full scan of ${tableOf(scan[1])}: ${detail}`);
    const search = /^SEARCH (\w+) USING (?:COVERING )?INDEX \w+ \(workspace_id=\?\)$/.exec(detail);
    if (search && GROWING_TABLES.has(tableOf(search[1]))) {
      problems.push(`walks every row of the workspace in ${tableOf(search[1])}: ${detail}`);
    }
  }
  return problems;
}

export async function explainSqlite(db: Kysely<any>, query: CapturedQuery): Promise<string[]> {
  const result = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
  return result.rows.map((row) => row.detail);
}

/** PostgreSQL's plan with sequential scans disabled: a Seq Scan left means no index serves the query. */
export async function explainPostgres(db: Kysely<any>, query: CapturedQuery): Promise<string[]> {
  return db.transaction().execute(async (tx) => {
    await sql`set local enable_seqscan = off`.execute(tx);
    const result = await tx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
    return result.rows.map((row) => row['QUERY PLAN']);
  });
}

export function postgresPlanProblems(lines: readonly string[]): string[] {
  return lines.flatMap((line) => {
    const scan = /Seq Scan on (\w+)/.exec(line);
    return scan && GROWING_TABLES.has(scan[1]) ? [`no index serves ${scan[1]}: ${line.trim()}`] : [];
  });
}
