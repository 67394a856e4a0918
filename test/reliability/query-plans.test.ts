// The plans of the hot queries, checked deterministically on both databases: a database of
// realistic shape (the benchmark's seed: thousands of issues, hundreds of conversations with their
// messages and links, releases), every benchmark scenario and the other hot reads sent as real
// requests, and every statement they sent explained (test/helpers/query-plans.ts says what fails).
// SQLite is checked twice: without statistics, so that no good plan depends on luck, and after
// `PRAGMA optimize`, as a server that has run for a while has them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createServices } from '../../src/services.js';
import { seedMain, type DedupWorkspace, type Fixture } from '../../bench/seed.js';
import { SCENARIOS } from '../../bench/scenarios.js';
import { DIALECTS, migratedDatabaseUrl } from '../helpers/databases.js';
import {
  capturingDatabase, explainPostgres, explainSqlite, isPlannable, postgresPlanProblems, sqlitePlanProblems, type CapturedQuery,
} from '../helpers/query-plans.js';
import { sql } from 'kysely';

const ISSUES = 2000;
const REQUESTS_PER_SCENARIO = 3;

/** Hot reads that no benchmark scenario sends. */
const hotReads = (fixture: Fixture): string[] => [
  `/api/v1/issues/${fixture.issueIds[0]}`,
  '/api/v1/issues?limit=50',
  `/api/v1/issues?product_id=${fixture.products[1].id}&status=done&limit=50`,
  '/api/v1/issues?priority=high&limit=50',
  '/api/v1/conversations?limit=50',
  '/api/v1/conversations?status=open&limit=50',
  // The inbox's views (docs/inbox.md): Mine, Unassigned, and the longest waiting first.
  '/api/v1/conversations?assignee_id=me&status=open,in_progress&limit=50',
  '/api/v1/conversations?assignee_id=none&limit=50',
  '/api/v1/conversations?sort=waiting&limit=50',
  '/api/v1/conversations?status=open&sort=waiting&limit=50',
  // The app's open views leave snoozed conversations out; its Snoozed view lists only them.
  '/api/v1/conversations?assignee_id=me&status=open,in_progress&snoozed=false&limit=50',
  '/api/v1/conversations?status=open,in_progress&snoozed=false&sort=waiting&limit=50',
  '/api/v1/conversations?status=open,in_progress&snoozed=true&limit=50',
  // Service levels (docs/service-levels.md): the earliest due first, and the SLA filters.
  '/api/v1/conversations?sort=due&limit=50',
  '/api/v1/conversations?status=open&sort=due&limit=50',
  '/api/v1/conversations?sla=running&sort=due&limit=50',
  '/api/v1/conversations?sla=breached&limit=50',
  // Reports (docs/reports.md): a ten years' window, unfiltered and filtered, in business hours, per member, and the CSV.
  ...[
    'summary?', 'summary?business_hours=true&', `summary?product_id=${fixture.products[1].id}&assignee_id=me&`, 'summary?tag=billing&type=ticket&',
    'timeseries?metric=first_response_median&interval=week&', 'timeseries?metric=csat_score&interval=week&', 'timeseries?metric=sla_hit_rate&interval=week&',
    'agents?', 'conversations.csv?',
  ].map((report) => `/api/v1/reports/${report}from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z`),
  // A window not cut at midnight UTC: the ends of its first and last days counted on the rows.
  '/api/v1/reports/summary?from=2020-01-01T06:00:00Z&to=2029-12-31T18:00:00Z',
  // The help center's figures: the most viewed articles, of the workspace and of a product.
  '/api/v1/reports/articles?limit=100',
  `/api/v1/reports/articles?product_id=${fixture.products[1].id}`,
  '/api/v1/saved-replies',
  '/api/v1/calendars',
  '/api/v1/sla-policies',
  '/api/v1/releases?limit=50',
  '/api/v1/products',
  '/api/v1/members',
  '/api/v1/issues?tag=billing,android&limit=50',
  '/api/v1/conversations?tag=billing&limit=50',
  '/api/v1/contacts?limit=50',
  '/api/v1/contacts?q=ada&limit=50',
  '/api/v1/tags',
  // The bell (docs/inbox.md, "Notifications"): the member's list and its unread part.
  '/api/v1/notifications?limit=50',
  '/api/v1/notifications?unread=true&limit=50',
];

/**
 * Deep pages of the hot lists, past the middle: read from the other end in the mirrored order
 * (src/db/repositories/paging.ts), each by an index that holds the whole of its page's id query.
 */
const DEEP_PAGES = [
  { path: `/api/v1/issues?limit=50&offset=${ISSUES * 0.9}`, index: 'issues_listing', mirrored: 'asc' },
  { path: `/api/v1/conversations?limit=50&offset=${ISSUES / 10 * 0.9}`, index: 'conversations_listing', mirrored: 'asc' },
  { path: `/api/v1/conversations?sort=waiting&limit=50&offset=${ISSUES / 10 * 0.9}`, index: 'conversations_waiting_listing', mirrored: 'desc' },
  { path: `/api/v1/conversations?sort=due&limit=50&offset=${ISSUES / 10 * 0.9}`, index: 'conversations_due_listing', mirrored: 'desc' },
  // Filtered: the index holds the filter columns too, so the walk never reads a row.
  { path: `/api/v1/issues?status=pending,in_progress&limit=50&offset=${ISSUES * 0.45 * 0.9}`, index: 'issues_listing', mirrored: 'asc' },
  { path: `/api/v1/conversations?status=open,in_progress&type=ticket,chat,idea,feedback&limit=50&offset=${ISSUES / 10 * 0.9}`, index: 'conversations_listing', mirrored: 'asc' },
  { path: `/api/v1/conversations?status=open,in_progress&sort=waiting&limit=50&offset=${ISSUES / 10 * 0.9}`, index: 'conversations_waiting_listing', mirrored: 'desc' },
  { path: `/api/v1/conversations?status=open,in_progress&snoozed=false&limit=50&offset=${ISSUES / 10 * 0.9}`, index: 'conversations_listing', mirrored: 'asc' },
];

/** The page's id query of a list statement (`… where id in (<it>) order by …`), which holds every parameter. */
function pageIdQuery(query: CapturedQuery): CapturedQuery | undefined {
  const inner = / in \((select [^()]*(?:\([^()]*\)[^()]*)* offset (?:\+?\?|\$\d+))\)/.exec(query.sql)?.[1];
  return inner === undefined ? undefined : { sql: inner, parameters: query.parameters };
}

for (const dialect of DIALECTS) {
  describe(`the hot queries' plans [${dialect}]`, () => {
    let database: DatabaseHandle;
    let captured: Map<string, CapturedQuery>;
    /** Per deep page, the statements its request sent. */
    const deepPageStatements = new Map<string, CapturedQuery[]>();
    /** What a deduplicating create sent after an edit made elsewhere moved the product's dedup version. */
    let afterAnEdit: CapturedQuery[] = [];

    before(async () => {
      const url = await migratedDatabaseUrl(dialect);
      database = createDatabase(url);
      await database.migrate();
      const { fixture } = await seedMain(database, ISSUES);
      const scale = { label: String(ISSUES), issues: ISSUES };
      const own = new Map<string, unknown>();
      for (const scenario of SCENARIOS) if (scenario.seed && scenario.runsAt?.(scale) !== false) own.set(scenario.name, await scenario.seed(database, scale));
      // As autovacuum would have: statistics, and the visibility map that index-only scans need.
      if (dialect === 'postgres') await sql`vacuum (analyze)`.execute(database.db);

      const capturing = capturingDatabase(url, database);
      captured = capturing.captured;
      const services = createServices(capturing);
      const app = await buildApp({ database: capturing, services });
      const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const send = async (key: string, method: string, path: string, body?: string, token?: string) => {
          const headers: Record<string, string> = { authorization: `Bearer ${token ?? key}` };
          if (body !== undefined) headers['content-type'] = 'application/json';
          const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body?.replaceAll('{n}', String(captured.size)) });
          assert.ok(res.status < 400, `${method} ${path}: ${res.status} ${await res.text()}`);
          await res.arrayBuffer().catch(() => {});
        };
        for (const scenario of SCENARIOS) {
          if (scenario.runsAt?.(scale) === false) continue;
          const prepared = await scenario.prepare({ fixture, scale, baseUrl, own: own.get(scenario.name) });
          assert.ok(!('skipped' in prepared), scenario.name);
          for (const spec of prepared.requests.slice(0, REQUESTS_PER_SCENARIO)) {
            await send(prepared.key, spec.method, spec.path, spec.body, (spec as { token?: string }).token);
          }
        }
        for (const path of hotReads(fixture)) await send(fixture.key, 'GET', path);
        // Triage, asked for by a person (its reads and writes, then the conversation's list and the
        // queue), and run by a conversation's job (which first asks whether it already ran).
        const [triaged, another] = fixture.conversationIds;
        await send(fixture.key, 'POST', `/api/v1/conversations/${triaged}/triage`);
        await send(fixture.key, 'POST', `/api/v1/conversations/${triaged}/triage`);
        await send(fixture.key, 'GET', `/api/v1/conversations/${triaged}/suggestions`);
        await send(fixture.key, 'GET', '/api/v1/suggestions?status=open&limit=50');
        // A notification for the key's member (a note of an integration key mentioning them), marked read.
        const { display_name: ownName } = (await (await fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${fixture.key}` } })).json()).data.member;
        const integration = await services.admin.createKey({ workspaceId: (await database.db.selectFrom('conversations').select('workspace_id').where('id', '=', triaged).executeTakeFirstOrThrow()).workspace_id });
        await send(integration.key, 'POST', `/api/v1/conversations/${triaged}/notes`, JSON.stringify({ body: `@${ownName} please look` }));
        await send(fixture.key, 'GET', '/api/v1/notifications?unread=true&limit=50');
        await send(fixture.key, 'POST', '/api/v1/notifications/read', JSON.stringify({ all: true }));
        // Service levels: a policy applied to a new conversation, its clocks moved by a reply and a change, and the breach watcher's read.
        await send(fixture.key, 'POST', '/api/v1/sla-policies', JSON.stringify({ name: 'Plans', first_response_seconds: 1 }));
        const slaCreated = await fetch(`${baseUrl}/api/v1/conversations`, {
          method: 'POST', headers: { authorization: `Bearer ${fixture.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ product_id: fixture.products[0].id, title: 'Timed', body: 'Anyone?' }),
        });
        const timed = (await slaCreated.json()).data.id as string;
        await send(fixture.key, 'POST', `/api/v1/conversations/${timed}/messages`, JSON.stringify({ body: 'Here' }));
        await send(fixture.key, 'PATCH', `/api/v1/conversations/${timed}`, JSON.stringify({ priority: 'urgent', status: 'resolved' }));
        await services.slaBreaches.run();
        const { workspace_id: workspaceId } = await database.db.selectFrom('conversations').select('workspace_id').where('id', '=', another).executeTakeFirstOrThrow();
        await services.triage.runTriage(workspaceId, another);
        await services.triage.runTriage(workspaceId, another);
        // The matcher's index, current after the scenario's own creations, catches up with an edit.
        const dedup = own.get('POST /issues/maybe (lexical)') as DedupWorkspace;
        const issues = await (await fetch(`${baseUrl}/api/v1/issues?product_id=${dedup.productId}&limit=1`, { headers: { authorization: `Bearer ${dedup.key}` } })).json();
        await send(dedup.key, 'PATCH', `/api/v1/issues/${issues.data[0].id}`, JSON.stringify({ title: 'Checkout freezes on the last step' }));
        const sentBefore = capturing.sent.length;
        await send(dedup.key, 'POST', '/api/v1/issues/maybe', JSON.stringify({ product_id: dedup.productId, title: 'Checkout freezes on the last step' }));
        afterAnEdit = capturing.sent.slice(sentBefore).map((text) => captured.get(text)!);
        for (const { path } of DEEP_PAGES) {
          const before = capturing.sent.length;
          await send(fixture.key, 'GET', path);
          deepPageStatements.set(path, capturing.sent.slice(before).map((text) => captured.get(text)!));
        }
      } finally {
        await services.live.close();
        await app.close();
        await capturing.close();
      }
    });

    after(() => database.close());

    const check = async () => {
      const problems: string[] = [];
      for (const query of captured.values()) {
        if (!isPlannable(query.sql)) continue;
        const found = dialect === 'sqlite'
          ? sqlitePlanProblems(query.sql, await explainSqlite(database.db, query))
          : postgresPlanProblems(await explainPostgres(database.db, query));
        problems.push(...found.map((problem) => `${problem}\n    in: ${query.sql}`));
      }
      return problems;
    };

    it('sent the hot statements', () => {
      const plannable = [...captured.keys()].filter(isPlannable);
      assert.ok(plannable.length >= 40, `only ${plannable.length} statements captured`);
      assert.ok(plannable.some((text) => text.includes('"issue_conversations" as "link"')), 'the conversation\'s linked issues');
    });

    it(dialect === 'sqlite' ? 'walks no growing table, without statistics' : 'walks no growing table: an index serves every statement', async () => {
      assert.deepEqual(await check(), []);
    });

    it('reads a deep page from the other end, by the index of its order alone (covering, no sort)', async () => {
      for (const { path, index, mirrored } of DEEP_PAGES) {
        const idQueries = deepPageStatements.get(path)!.map(pageIdQuery).filter((query) => query !== undefined);
        assert.equal(idQueries.length, 1, `${path}: one page query`);
        const [idQuery] = idQueries as CapturedQuery[];
        assert.match(idQuery.sql, new RegExp(` ${mirrored} limit \\S+ offset \\S+$`), `${path}: read in the mirrored order`);
        const plan = dialect === 'sqlite' ? await explainSqlite(database.db, idQuery) : await explainPostgres(database.db, idQuery);
        const expected = dialect === 'sqlite'
          ? new RegExp(`^SEARCH \\w+ USING COVERING INDEX ${index} \\(workspace_id=\\?\\)$`)
          : new RegExp(`Index Only Scan (Backward )?using ${index} `);
        assert.ok(plan.some((line) => expected.test(line)), `${path}: ${index} alone:\n${plan.join('\n')}`);
        assert.ok(!plan.some((line) => /TEMP B-TREE|Sort/.test(line)), `${path}: no sort:\n${plan.join('\n')}`);
      }
    });

    it('catches the matcher up with an edit by the index of the issues\' dedup stamps, not by reading the candidates', async () => {
      const read = afterAnEdit.filter((query) => /from "issues" where "workspace_id" = \S+ and "product_id" = /.test(query.sql));
      assert.equal(read.length, 1, `one read of the product's issues:\n${read.map((query) => query.sql).join('\n')}`);
      assert.match(read[0].sql, /"dedup_version" > /);
      const plan = dialect === 'sqlite' ? await explainSqlite(database.db, read[0]) : await explainPostgres(database.db, read[0]);
      const expected = dialect === 'sqlite'
        ? /^SEARCH issues USING INDEX issues_dedup_changes \(workspace_id=\? AND product_id=\? AND dedup_version>\?\)$/
        : /Index (Only )?Scan (Backward )?(using|on) issues_dedup_changes /;
      assert.ok(plan.some((line) => expected.test(line)), plan.join('\n'));
    });

    if (dialect === 'sqlite') {
      // A bare `?` that may shape a plan (across a join, against STAT4 samples) has SQLite prepare
      // the statement again at every run: +11–27 µs per join statement (src/db/dialect.ts).
      it('binds every value as +?, so that no statement is prepared again at each run', () => {
        const bare = [...captured.keys()].filter((text) => /(?<!\+)\?/.test(text));
        assert.deepEqual(bare, []);
      });

      it('walks no growing table once PRAGMA optimize has gathered statistics', async () => {
        await sql`pragma optimize = 0x10002`.execute(database.db);
        assert.deepEqual(await check(), []);
      });
    }
  });
}
