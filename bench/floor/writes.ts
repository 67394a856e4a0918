// The floor's writes: the rows the server's write units write, in one transaction each (the lock,
// the numbering, the dedup version, the row, its tally, the event in the outbox and its note to the
// live channel), and the body it answers with.
import { v7 as newId } from 'uuid';
import { parseUuid } from '../../src/lib/ids.js';
import {
  CONVERSATION_WITH_CONTACT, detailJson, failure, issueKey, notFound, ok, readIssueDetail, readIssueDetails, type Actor, type Answer, type IssueDetail,
} from './reads.js';
import { messageExcerpt } from '../../src/domain/conversations/message-excerpt.js';
import { messageCounts, slotOf, utcDayOf } from '../../src/db/repositories/reports/report-days.js';
import { TRIAGE_AFTER_SUMMARY_MS } from '../../src/domain/triage/triage-job.js';
import { BENCH_SEARCH_FOLD_MS, BENCH_SUMMARY_DEBOUNCE_MS } from '../processes.js';
import { array, ISSUE, messageJson, object, RELEASE, RELEASE_ISSUE } from './shapes.js';
import { placeholders, type Queries, type Row, type Store, type Transaction } from './store.js';

const PRIORITIES = new Set(['low', 'normal', 'high', 'urgent']);
const LIVE_CHANNEL = 'loopdesk_events';

type Body = Record<string, unknown>;
export const invalid = (field: string, message: string) => failure(400, 'validation_error', `${field}: ${message}`);

/** One event row, as the outbox records it (`data` is JSON text already), and the live channel's note. */
export async function recordEvent(tx: Transaction, workspaceId: string, type: string, data: string, conversationId: string | null): Promise<void> {
  const id = newId();
  const timestamp = new Date().toISOString();
  await tx.run(
    'insert into events (id, workspace_id, type, payload, created_at, fanned_out_at) values (?, ?, ?, ?, ?, null)',
    [id, workspaceId, type, `{"type":"${type}","timestamp":"${timestamp}","data":${data}}`, timestamp],
  );
  await tx.notify(LIVE_CHANNEL, JSON.stringify([id, workspaceId, type, conversationId]));
}

const TALLY_UPSERT = 'insert into issue_tallies (workspace_id, product_id, status, priority, assignee_key, issue_count) values ';
const TALLY_CONFLICT =
  ' on conflict (workspace_id, status, priority, product_id, assignee_key) do update set issue_count = issue_tallies.issue_count + excluded.issue_count';

/** Moves issues between tallies: -1 where they were, +1 where they are, in the server's key order. */
async function adjustTallies(tx: Queries, before: Row[], after: Row[]): Promise<void> {
  const changes = new Map<string, unknown[]>();
  const add = (issue: Row, delta: number) => {
    const row = [issue.workspace_id, issue.product_id, issue.status, issue.priority, issue.assignee_id ?? '', delta];
    const key = [row[0], row[2], row[3], row[1], row[4]].join(' ');
    const known = changes.get(key);
    if (known) (known[5] as number) += delta;
    else changes.set(key, row);
  };
  for (const issue of before) add(issue, -1);
  for (const issue of after) add(issue, 1);
  const rows = [...changes].filter(([, row]) => row[5] !== 0).sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
  if (rows.length === 0) return;
  await tx.run(TALLY_UPSERT + rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ') + TALLY_CONFLICT, rows.flat());
}

/** Moves the product's dedup version on; returns the version this transaction wrote (its row stays locked until the end). */
const bumpDedupVersion = async (tx: Queries, workspaceId: string, productId: string): Promise<number> =>
  Number((await tx.one<{ version: number }>(
    'insert into dedup_versions (product_id, workspace_id, version) values (?, ?, 1) on conflict (product_id) do update set version = dedup_versions.version + 1 returning version',
    [productId, workspaceId],
  ))!.version);

const lockProductIssues = (tx: Transaction, productId: string) => tx.lock(`product-issues:${productId}`);

/** An issue's detail as its events carry it: linked conversations before the sources count, then what else the event adds. */
export const eventDetail = ({ issue, linked }: IssueDetail, more = '') =>
  `{${ISSUE.fields(issue)},"linked_conversations":${linked},"sources_count":${issue.sources_count}${more}}`;

/** A title as the server takes it: trimmed, 1–500 characters. */
export function title(value: unknown): string | undefined {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return trimmed.length >= 1 && trimmed.length <= 500 ? trimmed : undefined;
}

/** The workspace's product a body's `product_id` names, with its issue prefix; undefined when it names none. */
export async function productNamed(db: Queries, actor: Actor, value: unknown): Promise<Row | undefined> {
  const productId = typeof value === 'string' ? parseUuid(value) : null;
  return productId ? db.one('select id, issue_prefix from products where workspace_id = ? and id = ?', [actor.workspaceId, productId]) : undefined;
}

/**
 * A new pending, unassigned issue of the product, as the server's issue writes insert one: under
 * the product's issue lock, the next number of its prefix, the product's dedup version moved, the
 * row and its tally. Returns the row and the dedup version the transaction wrote.
 */
export async function insertIssue(
  tx: Transaction, workspaceId: string, product: Row, fields: { title: string; description: string | null; priority: unknown },
): Promise<{ row: Row; dedupVersion: number }> {
  await lockProductIssues(tx, product.id as string);
  const counter = await tx.one<{ last_number: number }>(
    'insert into issue_counters (workspace_id, prefix, last_number) values (?, ?, 1) ' +
      'on conflict (workspace_id, prefix) do update set last_number = issue_counters.last_number + 1 returning last_number',
    [workspaceId, product.issue_prefix],
  );
  const dedupVersion = await bumpDedupVersion(tx, workspaceId, product.id as string);
  const now = new Date().toISOString();
  const row: Row = {
    id: newId(), workspace_id: workspaceId, product_id: product.id, shortcode: `${product.issue_prefix}-${counter!.last_number}`,
    title: fields.title, description: fields.description, status: 'pending', priority: fields.priority, assignee_id: null, resolution_comment: null,
    is_ai_generated: 0, tags: '[]', created_at: now, updated_at: now,
  };
  // Stamped with the dedup version it moved the product to, which the matchers' catch-up reads.
  const columns = [...Object.keys(row), 'dedup_version'];
  await tx.run(`insert into issues (${columns.join(', ')}) values (${placeholders(columns)})`, [...Object.values(row), dedupVersion]);
  await adjustTallies(tx, [], [row]);
  return { row, dedupVersion };
}

/** POST /issues with a product, a title and a priority (what the bench sends; no assignee). */
export async function createIssue(store: Store, actor: Actor, body: Body): Promise<Answer> {
  const issueTitle = title(body.title);
  if (!issueTitle) return invalid('title', 'must be 1–500 characters after trimming');
  const priority = body.priority ?? 'normal';
  if (!PRIORITIES.has(priority as string)) return invalid('priority', 'not a priority');
  const product = await productNamed(store, actor, body.product_id);
  if (!product) return invalid('product_id', 'is not a product of this workspace');
  const issue = await store.transaction(async (tx) => {
    const { row } = await insertIssue(tx, actor.workspaceId, product, { title: issueTitle, description: null, priority });
    const detail = { issue: { ...row, sources_count: 0 }, linked: '[]' };
    await recordEvent(tx, actor.workspaceId, 'issue.created', eventDetail(detail), null);
    return detail;
  });
  return ok(`{"data":${detailJson(issue)}}`, 201);
}

/** The fields a PATCH of the bench sends, as the server compares them (in its order). */
const PATCHABLE = ['priority', 'resolution_comment'] as const;
const TALLIED = new Set(['status', 'priority', 'assignee_id']);

/** PATCH /issues/{id} of priority and resolution_comment: effective changes only, under the issue's lock. */
export async function updateIssue(store: Store, actor: Actor, idOrShortcode: string, body: Body): Promise<Answer> {
  if (body.priority !== undefined && !PRIORITIES.has(body.priority as string)) return invalid('priority', 'not a priority');
  const key = issueKey(idOrShortcode);
  const readIssue = (db: Queries, by: string, value: string) =>
    db.one(`select workspace_id, ${ISSUE.columns('i')} from issues i where i.workspace_id = ? and i.${by} = ?`, [actor.workspaceId, value]);
  const found = key && (await readIssue(store, ...key));
  if (!found) return notFound('issue');
  const detail = await store.transaction(async (tx) => {
    await tx.lock(`issue:${found.id}`);
    const current = (await readIssue(tx, 'id', found.id as string))!;
    const changes: Row = {};
    for (const field of PATCHABLE) {
      // "" clears a text, as null does.
      const wanted = field === 'resolution_comment' && body[field] === '' ? null : body[field];
      if (wanted !== undefined && current[field] !== wanted) changes[field] = wanted;
    }
    if (Object.keys(changes).length === 0) return (await readIssueDetail(tx, actor.workspaceId, 'id', current.id as string))!;
    changes.updated_at = new Date().toISOString();
    if (Object.keys(changes).some((field) => TALLIED.has(field))) await lockProductIssues(tx, current.product_id as string);
    const next = { ...current, ...changes };
    await tx.run(
      'update issues set title = ?, description = ?, status = ?, priority = ?, assignee_id = ?, resolution_comment = ?, updated_at = ? where workspace_id = ? and id = ?',
      [next.title, next.description, next.status, next.priority, next.assignee_id, next.resolution_comment, next.updated_at, next.workspace_id, next.id],
    );
    await adjustTallies(tx, [current], [next]);
    const shown = (await readIssueDetail(tx, actor.workspaceId, 'id', current.id as string))!;
    const previous = Object.keys(changes).map((field) => `"${field}":${JSON.stringify(current[field])}`).join(',');
    await recordEvent(tx, actor.workspaceId, 'issue.updated', eventDetail(shown, `,"previous":{${previous}}`), null);
    return shown;
  });
  return ok(`{"data":${detailJson(detail)}}`);
}

/** A release's detail as the API shows it: its columns, its product, how many issues it ships and which. */
async function releaseJson(db: Queries, workspaceId: string, id: string): Promise<string> {
  const [release, issues] = await Promise.all([
    db.one(
      `select ${RELEASE.columns('r')}, p.name as product_name, (select count(*) from release_issues ri where ri.release_id = r.id) as linked_issues_count ` +
        'from releases r join products p on p.id = r.product_id where r.workspace_id = ? and r.id = ?',
      [workspaceId, id],
    ),
    db.all(
      'select i.id, i.title, i.status, i.priority from release_issues ri join issues i on i.id = ri.issue_id ' +
        'where ri.workspace_id = ? and ri.release_id = ? order by i.created_at asc, i.id asc',
      [workspaceId, id],
    ),
  ]);
  return `{${RELEASE.fields(release!)},"product":{"id":"${release!.product_id}","name":${JSON.stringify(release!.product_name)}},` +
    `"linked_issues_count":${Number(release!.linked_issues_count)},"issues":${array(RELEASE_ISSUE, issues)}}`;
}

/**
 * POST /releases with a product, a title and issues of the product (what the bench sends),
 * published now: under the issues' locks, the release and its links, then the issues not released
 * yet marked released under the product's issue lock (the dedup version moved and stamped on them,
 * tallies, an event each), then
 * the release's created and published events.
 */
export async function createRelease(store: Store, actor: Actor, body: Body): Promise<Answer> {
  const releaseTitle = title(body.title);
  if (!releaseTitle) return invalid('title', 'must be 1–500 characters after trimming');
  const productId = typeof body.product_id === 'string' ? parseUuid(body.product_id) : null;
  const product = productId && (await store.one('select id from products where workspace_id = ? and id = ?', [actor.workspaceId, productId]));
  if (!product) return invalid('product_id', 'is not a product of this workspace');
  if (!Array.isArray(body.issue_ids) || body.issue_ids.some((id) => typeof id !== 'string')) return invalid('issue_ids', 'must be a list of ids');
  const issueIds = [...new Set((body.issue_ids as string[]).map((id) => id.toLowerCase()))];
  const found = issueIds.length === 0 ? [] : await store.all(
    `select id, product_id from issues where workspace_id = ? and id in (${placeholders(issueIds)})`, [actor.workspaceId, ...issueIds],
  );
  if (found.filter((issue) => issue.product_id === productId).length !== issueIds.length) return invalid('issue_ids', 'not issues of this release\'s product');
  const detail = await store.transaction(async (tx) => {
    await tx.lockAll(issueIds.map((id) => `issue:${id}`));
    const now = new Date().toISOString();
    const id = newId();
    await tx.run(
      'insert into releases (id, workspace_id, product_id, title, description, version, released_at, created_at, updated_at) values (?, ?, ?, ?, null, null, ?, ?, ?)',
      [id, actor.workspaceId, productId, releaseTitle, now, now, now],
    );
    if (issueIds.length > 0) {
      await tx.run(
        `insert into release_issues (release_id, issue_id, workspace_id, created_at) values ${issueIds.map(() => '(?, ?, ?, ?)').join(', ')}`,
        issueIds.flatMap((issueId) => [id, issueId, actor.workspaceId, now]),
      );
      await lockProductIssues(tx, productId);
      const leaving = await tx.all(
        `select id, workspace_id, product_id, status, priority, assignee_id, updated_at from issues where workspace_id = ? and id in (${placeholders(issueIds)}) and status <> 'released'`,
        [actor.workspaceId, ...issueIds],
      );
      if (leaving.length > 0) {
        const leavingIds = leaving.map((issue) => issue.id as string);
        const dedupVersion = await bumpDedupVersion(tx, actor.workspaceId, productId);
        await tx.run(
          `update issues set status = 'released', updated_at = ?, dedup_version = ? where workspace_id = ? and id in (${placeholders(leavingIds)})`,
          [now, dedupVersion, actor.workspaceId, ...leavingIds],
        );
        await adjustTallies(tx, leaving, leaving.map((issue) => ({ ...issue, status: 'released' })));
        const details = await readIssueDetails(tx, actor.workspaceId, leavingIds);
        for (const issue of leaving) {
          const previous = `,"previous":{"status":${JSON.stringify(issue.status)},"updated_at":${JSON.stringify(issue.updated_at)}}`;
          await recordEvent(tx, actor.workspaceId, 'issue.updated', eventDetail(details.get(issue.id as string)!, previous), null);
        }
      }
    }
    const release = await releaseJson(tx, actor.workspaceId, id);
    await recordEvent(tx, actor.workspaceId, 'release.created', release, null);
    await recordEvent(tx, actor.workspaceId, 'release.published', release, null);
    return release;
  });
  return ok(`{"data":${detail}}`, 201);
}

export const lockConversation = (tx: Transaction, id: string) => tx.lock(`conversation:${id}`);

/** A conversation job asked for by a message: inserted, or the existing one of its kind pending again and due `delayMs` later. */
const requestJob = (tx: Queries, message: Row, kind: 'search' | 'summary' | 'triage', delayMs: number) => {
  const now = new Date().toISOString();
  return tx.run(
    'insert into conversation_jobs (id, workspace_id, conversation_id, kind, status, attempts, last_error, requested_at, next_attempt_at, created_at, updated_at) ' +
      "values (?, ?, ?, ?, 'pending', 0, null, ?, ?, ?, ?) on conflict (conversation_id, kind) do update set status = excluded.status, " +
      'attempts = excluded.attempts, last_error = excluded.last_error, requested_at = excluded.requested_at, next_attempt_at = excluded.next_attempt_at, updated_at = excluded.updated_at',
    [newId(), message.workspace_id, message.conversation_id, kind, message.created_at, new Date(Date.parse(now) + delayMs).toISOString(), now, now],
  );
};

/** The wait a message's sender starts or ends (a contact's starts it unless one is already waiting, an agent's reply ends it). */
const WAITING_SINCE: Record<string, string> = { contact: 'coalesce(waiting_since, ?)', agent: '?' };

/**
 * A message written as the server's write path writes one, under its conversation's lock: the jobs
 * it asks for (its fold; a contact's also the summary, the contact's first also triage, and the
 * contact seen), the row, the conversation's list fields, and message.created.
 */
export async function addMessage(tx: Transaction, message: Row): Promise<string> {
  await tx.lock(`conversation:${message.conversation_id}`);
  const byContact = message.sender_type === 'contact';
  await requestJob(tx, message, 'search', BENCH_SEARCH_FOLD_MS);
  if (byContact) {
    await tx.run('update contacts set last_seen_at = ? where workspace_id = ? and id = ?', [message.created_at, message.workspace_id, message.sender_id]);
    await requestJob(tx, message, 'summary', BENCH_SUMMARY_DEBOUNCE_MS);
    const earlier = await tx.one(
      "select id from messages where workspace_id = ? and conversation_id = ? and sender_type = 'contact' limit 1",
      [message.workspace_id, message.conversation_id],
    );
    if (!earlier) await requestJob(tx, message, 'triage', BENCH_SUMMARY_DEBOUNCE_MS + TRIAGE_AFTER_SUMMARY_MS);
  }
  // The conversation's report dimensions, copied by the insert as the server's does (src/db/repositories/reports/report-dimensions.ts).
  const columns = Object.keys(message);
  const dimensions = ['product_id', 'type', 'source', 'assignee_id'];
  await tx.run(
    `insert into messages (${[...columns, ...dimensions].join(', ')}) values (${placeholders(columns)}, ` +
      `${dimensions.map((column) => `(select ${column} from conversations where id = ?)`).join(', ')})`,
    [...Object.values(message), ...dimensions.map(() => message.conversation_id)],
  );
  // Its day's count, under the conversation's dimensions, as the server's does (src/db/repositories/reports/report-days.ts).
  const counts = messageCounts(message as { sender_type: string; internal: number });
  if (counts) {
    await tx.run(
      'insert into report_days (workspace_id, day, product_id, type, source, assignee_key, slot, conversations_created, messages_received, messages_sent) ' +
        "select workspace_id, cast(? as text), product_id, type, source, coalesce(cast(assignee_id as text), ''), cast(? as integer), 0, cast(? as integer), cast(? as integer) " +
        'from conversations where id = ? on conflict (workspace_id, day, product_id, type, source, assignee_key, slot) do update set ' +
        'messages_received = report_days.messages_received + excluded.messages_received, messages_sent = report_days.messages_sent + excluded.messages_sent',
      [utcDayOf(message.created_at as string), slotOf(message.conversation_id as string), counts.messages_received, counts.messages_sent, message.conversation_id],
    );
  }
  await tx.run(
    'update conversations set updated_at = ?, last_message_sender_type = ?, last_message_excerpt = ?, last_message_at = ?, ' +
      `waiting_since = ${WAITING_SINCE[message.sender_type as string]} where workspace_id = ? and id = ?`,
    [
      message.created_at, message.sender_type, messageExcerpt(message.body as string), message.created_at,
      byContact ? message.created_at : null, message.workspace_id, message.conversation_id,
    ],
  );
  const shown = messageJson(message);
  await recordEvent(tx, message.workspace_id as string, 'message.created', `${shown.slice(0, -1)},"conversation_id":"${message.conversation_id}"}`, message.conversation_id as string);
  return shown;
}

/** A message body as the server takes it: text with something other than whitespace. */
export const messageBody = (body: Body): string | undefined =>
  typeof body.body === 'string' && body.body.trim() !== '' ? body.body : undefined;

/** A new message's row: every column, as the server inserts it. */
export const messageRow = (workspaceId: string, conversationId: string, sender: Pick<Row, 'sender_type' | 'sender_id' | 'sender_name'>, body: string): Row => ({
  id: newId(), workspace_id: workspaceId, conversation_id: conversationId, ...sender, body,
  created_at: new Date().toISOString(), internal: 0, email_message_id: null, full_body: null,
});

/** POST /conversations/{id}/messages: an agent's reply, sent as the key's member (or the key). */
export async function postMessage(store: Store, actor: Actor, rawId: string, body: Body): Promise<Answer> {
  const id = parseUuid(rawId);
  const conversation = id && (await store.one(CONVERSATION_WITH_CONTACT, [actor.workspaceId, id]));
  if (!conversation) return notFound('conversation');
  const text = messageBody(body);
  if (text === undefined) return invalid('body', 'must not be empty');
  const row = messageRow(
    actor.workspaceId, conversation.id as string,
    { sender_type: 'agent', sender_id: actor.member?.id ?? actor.keyId, sender_name: actor.member?.display_name ?? null },
    text,
  );
  const shown = await store.transaction(async (tx) => {
    await lockConversation(tx, conversation.id as string);
    return addMessage(tx, row);
  });
  return ok(`{"data":${shown}}`, 201);
}
