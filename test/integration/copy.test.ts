// `loopdesk copy --to URL`, both ways between the dialects: a database filled through the API
// with every kind of resource is copied; the copy's counts and checksums match table by table;
// the app on the copy answers every list and detail read of both workspaces (API and widget)
// byte for byte as the app on the original does (both without their background workers, which
// would go on retrying the seeded webhook deliveries meanwhile); and on the real server started
// on the copy, the old API key, a signed-in session and a visitor's widget session go on
// writing. A target with data is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DIALECTS, freshDatabaseUrl, type DialectName } from '../helpers/databases.js';
import { createIssueMaybe, joinAsMember } from '../helpers/factories.js';
import { createTestContext, openTestApp, type WorkspaceFixture } from '../helpers/harness.js';
import { httpClient } from '../helpers/http-client.js';
import { operationsOf, type Operation } from '../helpers/openapi-operations.js';
import { runCli } from '../helpers/processes.js';
import { readEverything } from '../helpers/read-everything.js';
import { startServer } from '../helpers/server-process.js';
import { seedWorkspace, type SeededIds } from '../helpers/workspace-seed.js';

/** SQLite → PostgreSQL and back where PostgreSQL runs; SQLite → SQLite where it does not. */
const DIRECTIONS: [DialectName, DialectName][] = DIALECTS.includes('postgres')
  ? [['sqlite', 'postgres'], ['postgres', 'sqlite']]
  : [['sqlite', 'sqlite']];

/** Reading moves a credential's last use (once a minute): the one value two apps may not agree on. */
const LAST_USE = /"last_used_at":"[^"]*"/g;

/** Tables the seed fills, each of which must arrive with its rows. */
const FILLED_TABLES = [
  'workspaces', 'users', 'members', 'api_keys', 'sessions', 'invitations', 'products', 'issue_counters', 'issues', 'issue_tallies',
  'issue_api_sources', 'issue_conversations', 'contacts', 'conversations', 'messages', 'releases', 'release_issues', 'events',
  'webhook_endpoints', 'webhook_deliveries', 'widget_sessions', 'idea_upvotes', 'dedup_versions', 'suggestions', 'conversation_jobs', 'report_days',
];

interface Seeded {
  workspace: WorkspaceFixture;
  ids: SeededIds;
}

/** Every read of every seeded workspace, and a signed-in member's, as `status url` and the exact answer. */
async function readAll(databaseUrl: string, operations: Operation[], seeded: Seeded[], cookie: string): Promise<string[]> {
  const opened = await openTestApp(databaseUrl);
  try {
    await opened.checkAnswers(seeded[0].workspace.key);
    const lines: string[] = [];
    for (const { workspace, ids } of seeded) {
      const clientFor = (op: Operation) => opened.client(op.path.startsWith('/widget/') ? ids.visitorToken[0] : workspace.key);
      for (const read of await readEverything(clientFor, operations, ids)) lines.push(`${read.status} ${read.url}\n${read.text.replace(LAST_USE, '"last_used_at":…')}`);
    }
    for (const url of ['/api/v1/me', '/api/v1/issues?limit=200']) {
      const res = await opened.client(null).get(url, { headers: { cookie } });
      lines.push(`${res.status} ${url} (session)\n${res.text.replace(LAST_USE, '"last_used_at":…')}`);
    }
    return lines;
  } finally {
    await opened.close();
  }
}

for (const [from, to] of DIRECTIONS) {
  describe(`loopdesk copy [${from} → ${to}]`, () => {
    it('carries every row unchanged: counts and checksums match, and a server on the copy answers every read byte for byte', async (t) => {
      const context = await createTestContext(from);
      let open = true;
      t.after(() => open && context.close());
      const { a, b } = context;
      const seeded = [{ workspace: a, ids: await seedWorkspace(a, 'A', 2, context) }, { workspace: b, ids: await seedWorkspace(b, 'B', 1, context) }];
      const [ours] = seeded;
      const upvote = await context.client(ours.ids.visitorToken[0]).post(`/widget/v1/${ours.ids.widget[0]}/ideas/${ours.ids.idea[0]}/upvote`);
      assert.ok(upvote.status < 300, upvote.text);
      await createIssueMaybe(a.api, ours.ids.product[0], { title: 'A reported problem, with its provenance record' });
      const member = await joinAsMember(a.api, context.client(null));
      const operations = [
        ...operationsOf((await a.api.get('/api/v1/openapi.json')).body).filter((op) => op.path.startsWith('/api/v1/')),
        ...operationsOf((await a.api.get('/widget/v1/openapi.json')).body),
      ];
      await context.close();
      open = false;

      const targetUrl = await freshDatabaseUrl(to);
      const copied = await runCli(['copy', '--to', targetUrl, '--json'], { DATABASE_URL: context.databaseUrl });
      assert.equal(copied.code, 0, copied.stderr);
      const report = JSON.parse(copied.stdout);
      assert.equal(report.matches, true, copied.stdout);
      const rows = new Map<string, number>(report.tables.map((table: any) => [table.table, table.rows.target]));
      for (const table of FILLED_TABLES) assert.ok((rows.get(table) ?? 0) > 0, `${table} was filled and copied`);

      const expected = await readAll(context.databaseUrl, operations, seeded, member.cookie);
      assert.ok(expected.filter((line) => line.startsWith('200 ')).length > 60, 'the reads found the seeded data');
      assert.deepEqual(await readAll(targetUrl, operations, seeded, member.cookie), expected);

      // The old credentials write on a server started on the copy, which goes on numbering where the original stopped.
      const copy = await startServer({ databaseUrl: targetUrl });
      t.after(() => copy.process.stop());
      const issue = await httpClient(copy.baseUrl, a.key).post('/api/v1/issues', { product_id: ours.ids.product[0], title: 'Written on the copy' });
      assert.equal(issue.status, 201, issue.text);
      assert.equal(issue.body.data.shortcode, 'A1-5');
      const visitor = httpClient(copy.baseUrl, ours.ids.visitorToken[0]);
      const message = await visitor.post(`/widget/v1/${ours.ids.widget[0]}/conversations/${ours.ids.visitorConversation[0]}/messages`, { body: 'Still here' });
      assert.equal(message.status, 201, message.text);
      const signedIn = await httpClient(copy.baseUrl, null).get('/api/v1/me', { headers: { cookie: member.cookie } });
      assert.equal(signedIn.body.data.member.id, member.member.id);
      t.diagnostic(`copy ${from} → ${to}: ${[...rows.values()].reduce((sum, n) => sum + n, 0)} rows in ${rows.size} tables, ${expected.length} reads equal`);
    });

    it('refuses a target that holds data, changing neither database', async () => {
      const source = { DATABASE_URL: await freshDatabaseUrl(from) };
      const target = { DATABASE_URL: await freshDatabaseUrl(to) };
      for (const env of [source, target]) {
        assert.equal((await runCli(['migrate'], env)).code, 0);
        assert.equal((await runCli(['workspace', 'create', '--name', 'Acme'], env)).code, 0);
      }
      const before = (await runCli(['workspace', 'list', '--json'], target)).stdout;
      const refused = await runCli(['copy', '--to', target.DATABASE_URL], source);
      assert.equal(refused.code, 1);
      assert.equal(refused.stdout, '');
      assert.equal(refused.stderr, 'loopdesk: the target database is not empty (rows in workspaces); copy only into a new, empty database\n');
      assert.equal((await runCli(['workspace', 'list', '--json'], target)).stdout, before);
    });
  });
}
