// The agent's workflow with ldk, end to end, on every database: a representative subset of the
// commands the other test/cli files cover on SQLite alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DIALECTS } from '../helpers/databases.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { LDK, ldkEnvironment, type ListeningContext, listeningContext, Shell } from '../helpers/ldk.js';

for (const dialect of DIALECTS) {
  describe(`ldk, from login to release [${dialect}]`, () => {
    let server: ListeningContext;
    let shell: Shell;
    let product: any;
    before(async () => {
      server = await listeningContext(dialect);
      product = await createProduct(server.a.api, { name: 'Dialect App', issue_prefix: 'DA' });
      shell = new Shell();
    });
    after(() => server.close());

    it('logs in and ties the folder to the product', async () => {
      await shell.text('login', '--url', server.url, '--key', server.a.key);
      assert.equal((await shell.json('whoami')).data.member.id, server.a.owner.id);
      await shell.text('init', '--product', product.slug);
    });

    it('files an issue, and a second report of it lands on the same one', async () => {
      assert.match(await shell.text('issue', 'create', 'Sync stalls on large inboxes'), /^Created DA-1 /);
      assert.match(await shell.text('issue', 'create', 'Sync stalls on large inboxes'), /^Matched the existing issue DA-1 /);
      assert.equal((await shell.json('issue', 'create', 'Sync stalls on large inboxes', '--no-dedup')).data.shortcode, 'DA-2');
      assert.deepEqual(await shell.json('issue', 'list', '--status', 'pending'), (await server.a.api.get(`/api/v1/issues?product_id=${product.id}&status=pending`)).body);
    });

    it('works it: start, done with a comment, released by --all-done', async () => {
      assert.match(await shell.text('issue', 'start', 'da-1'), /^Started DA-1 .*in_progress, normal, assigned to Alpha Owner\.$/m);
      await shell.text('issue', 'done', 'DA-1', '--comment', 'Paged the sync');
      const release = await shell.json('release', 'create', '--title', 'Sync fixes', '--version', '1.0.0', '--all-done');
      assert.deepEqual(release.data.issues.map((issue: any) => [issue.title, issue.status]), [['Sync stalls on large inboxes', 'released']]);
    });

    it('replies to a customer only with --yes off a terminal', async () => {
      const conversation = await importConversation(server.a.api, product.id, { body: 'Sync is stuck' });
      assert.equal((await shell.run('conversation', 'reply', conversation.id, 'Fixed in 1.0.0')).code, 1);
      await shell.text('conversation', 'reply', conversation.id, 'Fixed in 1.0.0', '--yes');
      const messages = (await server.a.api.get(`/api/v1/conversations/${conversation.id}`)).body.data.messages;
      assert.deepEqual(messages.map((message: any) => message.body), ['Sync is stuck', 'Fixed in 1.0.0']);
    });

    it('a read-only key reads but cannot write', async () => {
      const readOnly = shell.withEnv({ LOOPDESK_API_KEY: server.a.readOnlyKey });
      assert.equal((await readOnly.json('issue', 'show', 'DA-2')).data.status, 'pending');
      const result = await readOnly.run('issue', 'start', 'DA-2');
      assert.equal(result.code, 1);
      assert.equal(result.stderr, 'error: this API key is read-only: only GET requests are allowed\n');
    });

    it('serves the same over MCP', async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [LDK, 'mcp'], cwd: shell.cwd, env: ldkEnvironment({ HOME: shell.home }) as Record<string, string> });
      const client = new Client({ name: 'dialect-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const filed = (await client.callTool({ name: 'create_issue', arguments: { title: 'Sync stalls on large inboxes' } })).structuredContent as any;
        assert.deepEqual({ matched: filed.matched_existing, code: filed.data.shortcode }, { matched: true, code: 'DA-2' });
        const issue = (await client.callTool({ name: 'get_issue', arguments: { id: 'DA-2' } })).structuredContent as any;
        assert.equal(issue.data.sources_count, 1);
      } finally {
        await client.close();
      }
    });
  });
}
