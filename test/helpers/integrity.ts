// Database-wide invariants that no request, crash or race may break: shortcode numbering without
// gaps or repeats, issue tallies and the reports' day counts equal to what they count, links and provenance records that
// stay inside one workspace and product, and (when nothing re-opened them) released issues for
// every release.
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { slotOf } from '../../src/db/repositories/reports/report-days.js';

async function rows<T>(db: Db, query: ReturnType<typeof sql<T>>): Promise<T[]> {
  return (await query.execute(db)).rows;
}

async function numberingProblems(db: Db): Promise<string[]> {
  const counters = await rows<{ workspace_id: string; prefix: string; last_number: number }>(
    db, sql`select workspace_id, prefix, last_number from issue_counters`,
  );
  const issues = await rows<{ workspace_id: string; shortcode: string }>(db, sql`select workspace_id, shortcode from issues`);
  const numbers = new Map<string, number[]>();
  for (const { workspace_id, shortcode } of issues) {
    const cut = shortcode.lastIndexOf('-');
    const key = `${workspace_id} ${shortcode.slice(0, cut)}`;
    numbers.set(key, [...(numbers.get(key) ?? []), Number(shortcode.slice(cut + 1))]);
  }
  const problems: string[] = [];
  for (const counter of counters) {
    const key = `${counter.workspace_id} ${counter.prefix}`;
    const used = (numbers.get(key) ?? []).sort((x, y) => x - y);
    numbers.delete(key);
    const expected = Array.from({ length: Number(counter.last_number) }, (_, i) => i + 1);
    if (used.join() !== expected.join()) {
      problems.push(`prefix ${counter.prefix}: counter at ${counter.last_number} but shortcode numbers ${summarize(used)}`);
    }
  }
  for (const key of numbers.keys()) problems.push(`shortcodes ${key}-… have no counter`);
  return problems;
}

const summarize = (numbers: number[]): string =>
  numbers.length > 12 ? `${numbers.slice(0, 6).join(',')},…,${numbers.slice(-6).join(',')} (${numbers.length})` : numbers.join(',') || 'none';

async function count(db: Db, query: ReturnType<typeof sql<{ n: number | string }>>): Promise<number> {
  const [row] = await rows(db, query);
  return Number(row.n);
}

export interface IntegrityOptions {
  /** Every issue linked to a release must be `released` (true when nothing re-opened one). */
  releasedIssuesStayReleased?: boolean;
}

/** Tally rows (issue_tallies, behind pagination.total) that disagree with a count of the issues. */
async function tallyProblems(db: Db): Promise<string[]> {
  type Tally = { workspace_id: string; product_id: string; status: string; priority: string; assignee_key: string; n: number | string };
  const keyOf = (row: Tally) => [row.workspace_id, row.product_id, row.status, row.priority, row.assignee_key].join(' ');
  const counted = await rows<Tally>(db, sql`
    select workspace_id, product_id, status, priority, coalesce(cast(assignee_id as text), '') as assignee_key, count(*) as n
    from issues group by workspace_id, product_id, status, priority, coalesce(cast(assignee_id as text), '')`);
  const kept = await rows<Tally>(db, sql`
    select workspace_id, product_id, status, priority, assignee_key, issue_count as n from issue_tallies where issue_count <> 0`);
  const expected = new Map(counted.map((row) => [keyOf(row), Number(row.n)]));
  const problems: string[] = [];
  for (const row of kept) {
    const key = keyOf(row);
    if (expected.get(key) !== Number(row.n)) problems.push(`tally ${key} says ${row.n}, the issues count ${expected.get(key) ?? 0}`);
    expected.delete(key);
  }
  for (const [key, n] of expected) problems.push(`tally ${key} is missing (the issues count ${n})`);
  return problems;
}

/** Day counts (report_days, behind a summary's whole days) that disagree with the conversations and messages they count. */
async function dayCountProblems(db: Db): Promise<string[]> {
  type Conversation = { id: string; workspace_id: string; product_id: string; type: string; source: string; assignee_id: string | null; created_at: string };
  const conversations = new Map((await rows<Conversation>(db, sql`
    select id, workspace_id, product_id, type, source, assignee_id, created_at from conversations`)).map((row) => [row.id, row]));
  const messages = await rows<{ conversation_id: string; created_at: string; sender_type: string; internal: number }>(db, sql`
    select conversation_id, created_at, sender_type, internal from messages`);
  const expected = new Map<string, number[]>();
  const add = (conversation: Conversation, at: string | Date, counts: number[]) => {
    const key = [conversation.workspace_id, new Date(at).toISOString().slice(0, 10), conversation.product_id, conversation.type, conversation.source,
      conversation.assignee_id ?? '', slotOf(conversation.id)].join(' ');
    expected.set(key, (expected.get(key) ?? [0, 0, 0]).map((n, i) => n + counts[i]!));
  };
  for (const conversation of conversations.values()) add(conversation, conversation.created_at, [1, 0, 0]);
  for (const message of messages) {
    if (message.sender_type === 'contact') add(conversations.get(message.conversation_id)!, message.created_at, [0, 1, 0]);
    else if (message.sender_type === 'agent' && Number(message.internal) === 0) add(conversations.get(message.conversation_id)!, message.created_at, [0, 0, 1]);
  }
  type Kept = { workspace_id: string; day: string; product_id: string; type: string; source: string; assignee_key: string; slot: number; created: number; received: number; sent: number };
  const kept = await rows<Kept>(db, sql`
    select workspace_id, day, product_id, type, source, assignee_key, slot, conversations_created as created, messages_received as received, messages_sent as sent
    from report_days where conversations_created <> 0 or messages_received <> 0 or messages_sent <> 0`);
  const problems: string[] = [];
  for (const row of kept) {
    const key = [row.workspace_id, row.day, row.product_id, row.type, row.source, row.assignee_key, row.slot].join(' ');
    const counts = [row.created, row.received, row.sent].map(Number);
    if ((expected.get(key) ?? [0, 0, 0]).join() !== counts.join()) problems.push(`day count ${key} says ${counts.join('/')}, the rows count ${(expected.get(key) ?? [0, 0, 0]).join('/')}`);
    expected.delete(key);
  }
  for (const [key, counts] of expected) problems.push(`day count ${key} is missing (the rows count ${counts.join('/')})`);
  return problems;
}

/** Broken invariants, as sentences (empty when the database is consistent). */
export async function integrityProblems(db: Db, options: IntegrityOptions = {}): Promise<string[]> {
  const problems = [...(await numberingProblems(db)), ...(await tallyProblems(db)), ...(await dayCountProblems(db))];
  const checks: [string, ReturnType<typeof sql<{ n: number | string }>>][] = [
    ['provenance records whose issue is missing or in another workspace', sql`
      select count(*) as n from issue_api_sources s left join issues i on i.id = s.issue_id
      where i.id is null or i.workspace_id <> s.workspace_id`],
    ['release links across workspaces or products', sql`
      select count(*) as n from release_issues l join releases r on r.id = l.release_id join issues i on i.id = l.issue_id
      where r.workspace_id <> l.workspace_id or i.workspace_id <> l.workspace_id or i.product_id <> r.product_id`],
    ['conversation links across workspaces or products', sql`
      select count(*) as n from issue_conversations l join issues i on i.id = l.issue_id join conversations c on c.id = l.conversation_id
      where i.workspace_id <> l.workspace_id or c.workspace_id <> l.workspace_id or c.product_id <> i.product_id`],
    ['messages outside their conversation\'s workspace, or newer than its updated_at', sql`
      select count(*) as n from messages m join conversations c on c.id = m.conversation_id
      where c.workspace_id <> m.workspace_id or m.created_at > c.updated_at`],
    ['issues of a product in another workspace', sql`
      select count(*) as n from issues i join products p on p.id = i.product_id where p.workspace_id <> i.workspace_id`],
  ];
  if (options.releasedIssuesStayReleased) {
    checks.push(['released issues whose status is not released', sql`
      select count(*) as n from release_issues l join issues i on i.id = l.issue_id where i.status <> 'released'`]);
  }
  for (const [what, query] of checks) {
    const n = await count(db, query);
    if (n > 0) problems.push(`${n} ${what}`);
  }
  return problems;
}

/** Ids of every row of `table`. */
export async function idsOf(db: Db, table: string): Promise<Set<string>> {
  const found = await rows<{ id: string }>(db, sql`select id from ${sql.table(table)}`);
  return new Set(found.map((row) => String(row.id)));
}
