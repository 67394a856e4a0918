// Checks a write journal (write-load.ts) against the database after the server is gone: every
// acknowledged write is there and intact, each issue is in a state some acknowledged (or
// unknown) write put it in, and no change was half applied.
import type { Db } from '../../src/db/database.js';
import { integrityProblems } from './integrity.js';
import type { Acknowledged, Journal, Write } from './write-load.js';

interface IssueState {
  title: string;
  status: string;
  priority: string;
  updated_at: string;
}

const of = (journal: Journal, kind: Acknowledged['kind']) => journal.acknowledged.filter((w) => w.kind === kind);

async function issueProblems(db: Db, journal: Journal): Promise<string[]> {
  const created = of(journal, 'issue').map((w) => w.response.data);
  if (created.length === 0) return [];
  const rows = await db.selectFrom('issues').selectAll().where('id', 'in', created.map((issue) => issue.id)).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const unknownPatch = new Map(journal.unknown.filter((w) => w.kind === 'patch').map((w) => [w.issueIds[0], w]));
  const released = new Set(of(journal, 'release').flatMap((w) => w.issueIds));
  const maybeReleased = new Set(journal.unknown.filter((w) => w.kind === 'release').flatMap((w) => w.issueIds));
  const problems: string[] = [];
  for (const issue of created) {
    const row = byId.get(issue.id);
    if (!row) {
      problems.push(`issue ${issue.shortcode} was acknowledged but is missing`);
      continue;
    }
    if (row.shortcode !== issue.shortcode || row.product_id !== issue.product_id || row.created_at !== issue.created_at) {
      problems.push(`issue ${issue.shortcode}: shortcode, product or created_at changed`);
    }
    const patches = journal.acknowledged.filter((w) => w.kind === 'patch' && w.issueIds[0] === issue.id);
    const base: IssueState = patches.length ? patches[patches.length - 1].response.data : issue;
    const candidates: Omit<IssueState, 'updated_at'>[] = [base];
    const pending = unknownPatch.get(issue.id);
    if (pending) candidates.push({ ...base, ...(pending.body as Partial<IssueState>) });
    const statuses = released.has(issue.id) ? ['released'] : maybeReleased.has(issue.id) ? ['released', ...candidates.map((c) => c.status)] : null;
    const matches = candidates.some((c) => c.title === row.title && c.priority === row.priority && (statuses ?? [c.status]).includes(row.status));
    if (!matches) problems.push(`issue ${issue.shortcode} is ${JSON.stringify([row.title, row.status, row.priority])}, which no write asked for`);
    const untouchedSince = !pending && !released.has(issue.id) && !maybeReleased.has(issue.id);
    if (untouchedSince && row.updated_at !== base.updated_at) {
      problems.push(`issue ${issue.shortcode}: updated_at ${row.updated_at}, acknowledged ${base.updated_at}`);
    }
  }
  return problems;
}

async function messageProblems(db: Db, journal: Journal): Promise<string[]> {
  const messages = [
    ...of(journal, 'message').map((w) => ({ ...w.response.data, conversation_id: w.path.split('/')[4] })),
    ...of(journal, 'conversation').flatMap((w) => w.response.data.messages.map((m: object) => ({ ...m, conversation_id: w.response.data.id }))),
  ];
  if (messages.length === 0) return [];
  const rows = await db.selectFrom('messages').selectAll().where('id', 'in', messages.map((m) => m.id)).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return messages
    .filter((m) => {
      const row = byId.get(m.id);
      return !row || row.body !== m.body || row.conversation_id !== m.conversation_id || row.created_at !== m.created_at;
    })
    .map((m) => `message ${m.id} ("${m.body}") is missing or altered`);
}

async function releaseLinks(db: Db, releaseId: string): Promise<string> {
  const links = await db.selectFrom('release_issues').select('issue_id').where('release_id', '=', releaseId).execute();
  return links.map((link) => link.issue_id).sort().join();
}

async function releaseProblems(db: Db, journal: Journal): Promise<string[]> {
  const problems: string[] = [];
  for (const write of of(journal, 'release')) {
    const { id, title } = write.response.data;
    const row = await db.selectFrom('releases').select(['id', 'title']).where('id', '=', id).executeTakeFirst();
    if (!row || row.title !== title) problems.push(`release "${title}" is missing or altered`);
    else if ((await releaseLinks(db, id)) !== [...write.issueIds].sort().join()) problems.push(`release "${title}" lost or gained issues`);
  }
  for (const write of journal.unknown.filter((w: Write) => w.kind === 'release')) {
    const row = await db.selectFrom('releases').select('id').where('title', '=', write.body.title).executeTakeFirst();
    if (row && (await releaseLinks(db, row.id)) !== [...write.issueIds].sort().join()) {
      problems.push(`unacknowledged release "${write.body.title}" was half applied`);
    }
  }
  return problems;
}

async function recordProblems(db: Db, journal: Journal): Promise<string[]> {
  const problems: string[] = [];
  const conversations = of(journal, 'conversation').map((w) => w.response.data);
  const found = conversations.length
    ? await db.selectFrom('conversations').select(['id', 'title']).where('id', 'in', conversations.map((c) => c.id)).execute()
    : [];
  const titles = new Map(found.map((row) => [row.id, row.title]));
  for (const conversation of conversations) {
    if (titles.get(conversation.id) !== conversation.title) problems.push(`conversation "${conversation.title}" is missing or altered`);
  }
  const maybes = of(journal, 'maybe');
  const sources = maybes.length
    ? await db.selectFrom('issue_api_sources').select(['id', 'issue_id', 'matched_existing']).where('id', 'in', maybes.map((w) => w.response.api_source_id)).execute()
    : [];
  const byId = new Map(sources.map((row) => [row.id, row]));
  for (const { response } of maybes) {
    const row = byId.get(response.api_source_id);
    if (!row || row.issue_id !== response.data.id || Boolean(row.matched_existing) !== response.matched_existing) {
      problems.push(`provenance record ${response.api_source_id} is missing or points elsewhere`);
    }
  }
  return problems;
}

/** Everything wrong with the database given what the journal says was acknowledged. */
export async function journalProblems(db: Db, journal: Journal): Promise<string[]> {
  return [
    ...(await issueProblems(db, journal)),
    ...(await messageProblems(db, journal)),
    ...(await releaseProblems(db, journal)),
    ...(await recordProblems(db, journal)),
    ...(await integrityProblems(db, { releasedIssuesStayReleased: true })),
  ];
}

/** Issues acknowledged as created are there, each at least as recent as its last acknowledged patch. */
async function issuesPresent(db: Db, journal: Journal): Promise<string[]> {
  const created = of(journal, 'issue').map((w) => w.response.data);
  if (created.length === 0) return [];
  const rows = await db.selectFrom('issues').select(['id', 'shortcode', 'updated_at']).where('id', 'in', created.map((issue) => issue.id)).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const latest = new Map(of(journal, 'patch').map((w) => [w.issueIds[0], w.response.data.updated_at as string]));
  return created.flatMap((issue) => {
    const row = byId.get(issue.id);
    if (!row || row.shortcode !== issue.shortcode) return [`issue ${issue.shortcode} was acknowledged but is missing`];
    const acknowledged = latest.get(issue.id) ?? issue.updated_at;
    return row.updated_at < acknowledged ? [`issue ${issue.shortcode} is older (${row.updated_at}) than its acknowledged state (${acknowledged})`] : [];
  });
}

/**
 * Everything wrong with a copy taken while writes went on (a backup), given the writes acknowledged
 * before it began: each of them is in it (an issue may carry later writes too), and the database's
 * invariants hold.
 */
export async function snapshotProblems(db: Db, acknowledgedBefore: Journal): Promise<string[]> {
  return [
    ...(await issuesPresent(db, acknowledgedBefore)),
    ...(await messageProblems(db, acknowledgedBefore)),
    ...(await releaseProblems(db, acknowledgedBefore)),
    ...(await recordProblems(db, acknowledgedBefore)),
    ...(await integrityProblems(db)),
  ];
}
