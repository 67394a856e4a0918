// POST /issues/maybe with the lexical matcher, done as the server's deduplicating create does it:
// the report's terms before the transaction; in it, under the product's dedup lock, the decision
// at the product's dedup version, then the call recorded as a source of the open issue it
// duplicates, or the issue created (writes.ts's insertIssue) with the call as its first source and
// its `issue.created` event. The matcher is the server's (src/dedup/lexical.ts: the per-product
// index, its scoring and band): a second implementation would measure itself, not a floor. This
// process keeps its own instance, fed by the floor's statements: a product's index is used as is
// while the dedup version is the one it reflects, brought up to date from the issues stamped with a
// later version when it moved (from the open issues when that cannot place one), and takes in an
// issue this process created once that committed.
import { v7 as newId } from 'uuid';
import type { Candidate, CandidateChange, PossibleDuplicate } from '../../src/dedup/detector.js';
import { createLexicalDetector } from '../../src/dedup/lexical.js';
import { detailJson, failure, ok, readIssueDetail, type Actor, type Answer, type IssueDetail } from './reads.js';
import { array, json, POSSIBLE_DUPLICATE } from './shapes.js';
import { placeholders, type Queries, type Row, type Store } from './store.js';
import { eventDetail, insertIssue, invalid, productNamed, recordEvent, title } from './writes.js';

const detector = createLexicalDetector();

/** Fields a call may send that the bench's do not (the created issue's status, priority and assignee, a conversation to link). */
const UNANSWERED_FIELDS = ['status', 'priority', 'assignee_id', 'conversation_id'];
const OPEN_STATUSES = ['pending', 'in_progress', 'icebox'];
const OPEN_ISSUES =
  `select id, title, description, created_at from issues where workspace_id = ? and product_id = ? and status in (${placeholders(OPEN_STATUSES)})`;
const CHANGED_ISSUES = 'select id, title, description, status, created_at from issues where workspace_id = ? and product_id = ? and dedup_version > ?';
const INSERT_SOURCE =
  'insert into issue_api_sources (id, workspace_id, issue_id, api_key_id, member_id, title, description, matched_existing, score, detector, origin, created_at) ' +
  "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'maybe', ?)";

/** The product's open issues, oldest first (created_at, then id): sorted here, as the server sorts them, so SQLite searches the product's open issues. */
async function openIssues(db: Queries, workspaceId: string, productId: string): Promise<Candidate[]> {
  const rows = await db.all<{ id: string; title: string; description: string | null; created_at: string }>(OPEN_ISSUES, [workspaceId, productId, ...OPEN_STATUSES]);
  rows.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1));
  return rows.map(({ created_at: createdAt, ...row }) => ({ ...row, createdAt }));
}

/** The product's issues written after dedup version `since`, candidates or not. */
async function changedIssues(db: Queries, workspaceId: string, productId: string, since: number): Promise<CandidateChange[]> {
  const rows = await db.all<{ id: string; title: string; description: string | null; status: string; created_at: string }>(
    CHANGED_ISSUES, [workspaceId, productId, since],
  );
  return rows.map(({ status, created_at: createdAt, ...row }) => ({ ...row, createdAt, open: OPEN_STATUSES.includes(status) }));
}

/** The review band's issues as the answer lists them, in the decision's order (best first). */
async function possibleDuplicatesJson(db: Queries, workspaceId: string, possible: readonly PossibleDuplicate[]): Promise<string> {
  if (possible.length === 0) return '[]';
  const ids = possible.map(({ issueId }) => issueId);
  const rows = await db.all(`select id, shortcode, title from issues where workspace_id = ? and id in (${placeholders(ids)})`, [workspaceId, ...ids]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return array(POSSIBLE_DUPLICATE, possible.map(({ issueId, score }): Row => ({ ...byId.get(issueId)!, score })));
}

/** What the transaction decided: the issue matched, or the one created (with the dedup version it wrote) and the review band's issues as JSON. */
type Outcome = { sourceId: string; score: number | null } & ({ matched: string } | { created: IssueDetail; dedupVersion: number; possible: string });

/** POST /issues/maybe with a product, a title and a description (what the bench sends). */
export async function createIssueUnlessDuplicate(store: Store, actor: Actor, body: Record<string, unknown>): Promise<Answer> {
  if (UNANSWERED_FIELDS.some((field) => body[field] !== undefined)) return failure(501, 'not_implemented', 'the floor answers only the bench\'s fields');
  const reportTitle = title(body.title);
  if (!reportTitle) return invalid('title', 'must be 1–500 characters after trimming');
  const description = body.description ?? null;
  if (description !== null && typeof description !== 'string') return invalid('description', 'must be a text or null');
  const product = await productNamed(store, actor, body.product_id);
  if (!product) return invalid('product_id', 'is not a product of this workspace');
  const { workspaceId } = actor;
  const productId = product.id as string;
  // "" is no description, for the report as for the issue.
  const report = { title: reportTitle, description: description || null };
  const prepared = await detector.prepare(report);
  const outcome = await store.transaction(async (tx): Promise<Outcome> => {
    await tx.lock(`dedup:${productId}`);
    const version = await tx.one<{ version: number }>('select version from dedup_versions where workspace_id = ? and product_id = ?', [workspaceId, productId]);
    const decision = await detector.decide(prepared, {
      workspaceId, productId, version: Number(version?.version ?? 0), candidates: () => openIssues(tx, workspaceId, productId),
      changedSince: (since) => changedIssues(tx, workspaceId, productId, since),
    });
    const sourceId = newId();
    const recordSource = (issueId: unknown) => tx.run(INSERT_SOURCE, [
      sourceId, workspaceId, issueId, actor.keyId, actor.member?.id ?? null, report.title, report.description,
      decision.issueId ? 1 : 0, decision.score, prepared.detector, new Date().toISOString(),
    ]);
    if (decision.issueId) {
      await recordSource(decision.issueId);
      return { sourceId, score: decision.score, matched: decision.issueId };
    }
    const possible = await possibleDuplicatesJson(tx, workspaceId, decision.possible ?? []);
    const { row, dedupVersion } = await insertIssue(tx, workspaceId, product, { title: report.title, description: report.description, priority: 'normal' });
    await recordSource(row.id);
    const created = { issue: { ...row, sources_count: 1 }, linked: '[]' };
    await recordEvent(tx, workspaceId, 'issue.created', eventDetail(created), null);
    return { sourceId, score: decision.score, created, dedupVersion, possible };
  });
  const answer = (detail: IssueDetail, matched: boolean, possible: string) =>
    `{"data":${detailJson(detail)},"matched_existing":${matched},"api_source_id":"${outcome.sourceId}","score":${json.nullable(json.number)(outcome.score)},` +
    `"detector":"${prepared.detector}","possible_duplicates":${possible}}`;
  if ('matched' in outcome) {
    // Read once committed, as the server reads it: the matched issue's detail with this call among its sources.
    return ok(answer((await readIssueDetail(store, workspaceId, 'id', outcome.matched))!, true, '[]'));
  }
  const { issue } = outcome.created;
  detector.created?.({
    id: issue.id as string, workspaceId, productId, title: report.title, description: report.description, createdAt: issue.created_at as string,
    open: true, version: outcome.dedupVersion,
  });
  return ok(answer(outcome.created, false, outcome.possible), 201);
}
