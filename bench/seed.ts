// Seeds a workspace through the services: 5 products, N issues spread over statuses, priorities
// and assignees, conversations with 10–30 messages linked to issues, and releases of 10 issues.
// Issues take the fast path: the service's own product and assignee checks (once per distinct
// value), then the service's insertIssue, a thousand per transaction.
import type { DatabaseHandle } from '../src/db/database.js';
import type { Actor } from '../src/domain/accounts/actor.js';
import type { IssueStatus, Priority } from '../src/domain/shared/enums.js';
import { inTransaction } from '../src/domain/shared/unit-of-work.js';
import { createServices, type Services } from '../src/services.js';
import { issueDescription, issueTitle, messageBody, sampleIndexes, seededRandom, type Random } from './texts.js';

export interface SeededProduct {
  id: string;
  issue_prefix: string;
}

export interface SeededIssue {
  id: string;
  shortcode: string;
  product: number;
  status: IssueStatus;
}

/** What the scenarios need to address the seeded data. */
export interface Fixture {
  key: string;
  products: SeededProduct[];
  shortcodes: string[];
  issueIds: string[];
  conversationIds: string[];
  /** Batches of 10 issue ids, all of products[0], none linked to a conversation. */
  releaseBatches: string[][];
}

export interface SeedSummary {
  issues: number;
  conversations: number;
  messages: number;
  links: number;
  releases: number;
  seconds: number;
}

const PRODUCT_NAMES = ['Web App', 'Mobile', 'Billing', 'Widget', 'Docs'];
// pending 30 %, in_progress 15 %, icebox 10 %, done 20 %, released 15 %, dismissed 10 %.
const STATUS_PATTERN: IssueStatus[] = [
  ...Array<IssueStatus>(6).fill('pending'), ...Array<IssueStatus>(3).fill('in_progress'), ...Array<IssueStatus>(2).fill('icebox'),
  ...Array<IssueStatus>(4).fill('done'), ...Array<IssueStatus>(3).fill('released'), ...Array<IssueStatus>(2).fill('dismissed'),
];
const PRIORITY_PATTERN: Priority[] = ['normal', 'normal', 'normal', 'low', 'high', 'high', 'urgent'];
const ISSUES_PER_TRANSACTION = 1000;
const PARALLEL_LANES = 8;
const SAMPLE_SIZE = 1000;

/** Runs fn(0..count-1) in `lanes` concurrent sequences (PostgreSQL gains; SQLite just interleaves). */
export async function inLanes(count: number, lanes: number, fn: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(lanes, count) }, lane));
}

export interface Workspace {
  actor: Actor;
  key: string;
  memberIds: string[];
}

/** A workspace with an owner (who holds the key) and `agents` more members. */
export async function seedWorkspace(services: Services, name: string, agents: number): Promise<Workspace> {
  const workspace = await services.admin.createWorkspace(name);
  const owner = await services.admin.createMember({ workspaceId: workspace.id, name: `${name} Owner`, role: 'owner' });
  const others = [];
  for (let i = 1; i <= agents; i++) {
    others.push(await services.admin.createMember({ workspaceId: workspace.id, name: `Agent ${i}`, role: 'agent' }));
  }
  const key = await services.admin.createKey({ workspaceId: workspace.id, memberId: owner.id, label: 'bench' });
  const actor: Actor = { workspaceId: workspace.id, apiKeyId: key.id, credentialId: key.id, readOnly: false, member: owner };
  return { actor, key: key.key, memberIds: [owner.id, ...others.map((member) => member.id)] };
}

export interface IssueSpec {
  product: number;
  status: IssueStatus;
  assigneeId: string | null;
}

/** Creates `count` issues described by spec(i), checked and numbered by the issue service. */
export async function seedIssues(
  database: DatabaseHandle, services: Services, actor: Actor, products: SeededProduct[], count: number,
  spec: (index: number) => IssueSpec, random: Random,
): Promise<SeededIssue[]> {
  const checked = new Set<string>();
  const issues: SeededIssue[] = [];
  for (let start = 0; start < count; start += ISSUES_PER_TRANSACTION) {
    const batch = Array.from({ length: Math.min(ISSUES_PER_TRANSACTION, count - start) }, (_, i) => spec(start + i));
    for (const { product, assigneeId } of batch) {
      if (!checked.has(`p:${product}`)) await services.issues.requireProduct(actor, products[product].id);
      if (assigneeId && !checked.has(`a:${assigneeId}`)) await services.issues.resolveAssignee(actor, assigneeId);
      checked.add(`p:${product}`).add(`a:${assigneeId}`);
    }
    await inTransaction(database.db, async (work) => {
      for (const [i, { product, status, assigneeId }] of batch.entries()) {
        const { row } = await services.issueWrites.create(work, {
          workspaceId: actor.workspaceId, productId: products[product].id, prefix: products[product].issue_prefix,
          title: issueTitle(random), description: issueDescription(random), status,
          priority: PRIORITY_PATTERN[(start + i) % PRIORITY_PATTERN.length], assigneeId,
        });
        issues.push({ id: row.id, shortcode: row.shortcode, product, status });
      }
    });
  }
  return issues;
}

async function seedConversations(services: Services, actor: Actor, products: SeededProduct[], issues: SeededIssue[], count: number, random: Random) {
  const byProduct = products.map((_, p) => issues.filter((issue) => issue.product === p));
  const ids: string[] = [];
  /** The issues some conversation is linked to. */
  const linked = new Set<string>();
  let messages = 0;
  let links = 0;
  await inLanes(count, PARALLEL_LANES, async (index) => {
    const product = index % products.length;
    const contact = Math.floor(random() * 500);
    const conversation = await services.conversations.create(actor, {
      product_id: products[product].id, title: issueTitle(random), body: messageBody(random),
      contact: { name: `Customer ${contact}`, email: `customer${contact}@example.test` },
    });
    ids.push(conversation.id);
    const total = 10 + Math.floor(random() * 21);
    for (let m = 1; m < total; m++) await services.conversations.postMessage(actor, conversation.id, { body: messageBody(random) });
    messages += total;
    const candidates = byProduct[product];
    for (const i of sampleIndexes(random, candidates.length, 1 + (index % 2))) {
      await services.issues.linkConversation(actor, candidates[i].id, conversation.id);
      linked.add(candidates[i].id);
      links++;
    }
  });
  return { ids, messages, links, linked };
}

/** Releases of 10 already-released issues each, so the seeded status spread stays as designed. */
async function seedReleases(services: Services, actor: Actor, products: SeededProduct[], issues: SeededIssue[], count: number) {
  const released = products.map((_, p) => issues.filter((issue) => issue.product === p && issue.status === 'released'));
  let made = 0;
  for (let r = 0; r < count; r++) {
    const product = r % products.length;
    const batch = released[product].slice(Math.floor(r / products.length) * 10).slice(0, 10);
    if (batch.length < 10) continue;
    await services.releases.create(actor, {
      product_id: products[product].id, title: `Release ${r + 1}`, version: `1.${r}.0`, issue_ids: batch.map((issue) => issue.id),
    });
    made++;
  }
  return made;
}

/** Seeds the main bench workspace with `issueCount` issues. */
export async function seedMain(database: DatabaseHandle, issueCount: number): Promise<{ fixture: Fixture; summary: SeedSummary }> {
  const started = performance.now();
  // The seeded conversations' folds fall due at once: the server under test does them before the first scenario.
  const services = createServices(database, { searchFoldMs: 0 });
  const random = seededRandom(issueCount);
  const { actor, key, memberIds } = await seedWorkspace(services, 'Bench', 4);
  const products: SeededProduct[] = [];
  for (const name of PRODUCT_NAMES) products.push(await services.products.create(actor, { name }, ''));

  const assignees = [...memberIds, null];
  const issues = await seedIssues(database, services, actor, products, issueCount, (i) => ({
    product: i % products.length,
    status: STATUS_PATTERN[Math.floor(i / products.length) % STATUS_PATTERN.length],
    assigneeId: assignees[i % assignees.length],
  }), random);
  const conversations = await seedConversations(services, actor, products, issues, Math.max(products.length, Math.round(issueCount / 10)), random);
  const releases = await seedReleases(services, actor, products, issues, Math.max(1, Math.round(issueCount / 100)));

  // The releases' issues have no linked conversation: a release of them announces nothing, so the
  // request is all the work a release does (announcements run in the background, after it), and
  // the floor's check sees no background writes.
  const firstProduct = issues.filter((issue) => issue.product === 0 && !conversations.linked.has(issue.id));
  const sample = sampleIndexes(random, issues.length, SAMPLE_SIZE).map((i) => issues[i]);
  const fixture: Fixture = {
    key,
    products,
    shortcodes: sample.map((issue) => issue.shortcode),
    issueIds: sample.map((issue) => issue.id),
    conversationIds: conversations.ids.slice(0, SAMPLE_SIZE),
    releaseBatches: Array.from({ length: 100 }, () => sampleIndexes(random, firstProduct.length, 10).map((i) => firstProduct[i].id)),
  };
  const summary: SeedSummary = {
    issues: issues.length, conversations: conversations.ids.length, messages: conversations.messages, links: conversations.links,
    releases, seconds: (performance.now() - started) / 1000,
  };
  return { fixture, summary };
}

export interface DedupWorkspace {
  key: string;
  workspaceId: string;
  productId: string;
}

/** A workspace of its own whose one product has `openIssues` open issues, for POST /issues/maybe. */
export async function seedDedupWorkspace(database: DatabaseHandle, openIssues: number): Promise<DedupWorkspace> {
  const services = createServices(database);
  const { actor, key } = await seedWorkspace(services, 'Dedup', 0);
  const product = await services.products.create(actor, { name: 'Dedup' }, '');
  const open: IssueStatus[] = ['pending', 'in_progress', 'icebox'];
  await seedIssues(database, services, actor, [product], openIssues, (i) => ({ product: 0, status: open[i % open.length], assigneeId: null }), seededRandom(openIssues));
  return { key, workspaceId: actor.workspaceId, productId: product.id };
}
