// ldk issue tag and ldk conversation tag: add, remove (--remove) or replace (--set) a record's tags
// by reading them and PATCHing the whole list; with nothing to change, they show the tags.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from '../helpers/databases.js';
import { createIssue, createProduct, importConversation } from '../helpers/factories.js';
import { type ListeningContext, listeningContext, type Shell } from '../helpers/ldk.js';

for (const dialect of DIALECTS) {
  describe(`ldk issue tag, ldk conversation tag [${dialect}]`, () => {
    let server: ListeningContext;
    let shell: Shell;
    let product: any;
    before(async () => {
      server = await listeningContext(dialect);
      product = await createProduct(server.a.api, { issue_prefix: 'TG' });
      shell = server.shell(server.a.key);
    });
    after(() => server.close());

    const newIssue = async (tags: string[]) => {
      const issue = await createIssue(server.a.api, product.id, { title: 'Export drops accents' });
      assert.equal((await server.a.api.patch(`/api/v1/issues/${issue.id}`, { tags })).status, 200);
      return issue;
    };
    const tagsOf = async (path: string) => (await server.a.api.get(path)).body.data.tags;

    it('issue tag adds the tags given after those it has (by shortcode), and says what it carries now', async () => {
      const issue = await newIssue(['billing']);
      assert.equal(await shell.text('issue', 'tag', issue.shortcode.toLowerCase(), 'export', 'needs design'),
        `${issue.shortcode} "Export drops accents" is tagged billing, export, needs design.\n`);
      assert.equal(await shell.text('issue', 'tag', issue.id, 'EXPORT', 'android'),
        `${issue.shortcode} "Export drops accents" is tagged billing, export, needs design, android.\n`, 'a tag it has, in any case, is not added twice');
    });

    it('--remove takes tags off, compared without case, before adding the tags given', async () => {
      const issue = await newIssue(['billing', 'Export', 'android']);
      assert.equal(await shell.text('issue', 'tag', issue.shortcode, '--remove', 'export', '--remove', ' ANDROID ', 'ios'),
        `${issue.shortcode} "Export drops accents" is tagged billing, ios.\n`);
      assert.deepEqual(await tagsOf(`/api/v1/issues/${issue.id}`), ['billing', 'ios']);
    });

    it('--set replaces every tag; --set alone removes them all; with --remove it is a usage error (exit 2)', async () => {
      const issue = await newIssue(['billing', 'export']);
      assert.equal(await shell.text('issue', 'tag', issue.shortcode, '--set', 'android', 'Billing'),
        `${issue.shortcode} "Export drops accents" is tagged android, Billing.\n`);
      assert.equal(await shell.text('issue', 'tag', issue.shortcode, '--set'), `${issue.shortcode} "Export drops accents" has no tags.\n`);
      const conflict = await shell.run('issue', 'tag', issue.shortcode, '--set', 'a', '--remove', 'b');
      assert.equal(conflict.code, 2);
      assert.match(conflict.stderr, /option '--set' cannot be used with option '--remove <tag>'/);
      assert.deepEqual(await tagsOf(`/api/v1/issues/${issue.id}`), []);
    });

    it('with nothing to change, shows the tags with a GET only (a read-only key may); --json prints that answer', async () => {
      const issue = await newIssue(['billing']);
      const readOnly = server.shell(server.a.readOnlyKey);
      assert.equal(await readOnly.text('issue', 'tag', issue.shortcode), `${issue.shortcode} "Export drops accents" is tagged billing.\n`);
      assert.deepEqual(await readOnly.json('issue', 'tag', issue.shortcode), (await server.a.api.get(`/api/v1/issues/${issue.id}`)).body);
    });

    it('--json prints the PATCH\'s answer: the record with its new tags', async () => {
      const issue = await newIssue([]);
      const body = await shell.json('issue', 'tag', issue.shortcode, 'billing');
      assert.deepEqual(body, (await server.a.api.get(`/api/v1/issues/${issue.id}`)).body);
      assert.deepEqual(body.data.tags, ['billing']);
    });

    it('a tag the API refuses: its detail on stderr, exit 1, nothing changed; --json prints the error envelope', async () => {
      const issue = await newIssue(['billing']);
      const result = await shell.run('issue', 'tag', issue.shortcode, 'a,b');
      assert.deepEqual(result, { code: 1, stdout: '', stderr: 'error: tags: "a,b" contains a comma\n' });
      const json = await shell.run('issue', 'tag', issue.shortcode, 'x'.repeat(51), '--json');
      assert.equal(json.code, 1);
      assert.deepEqual(JSON.parse(json.stdout), {
        error_code: 'validation_error', detail: `tags: "${'x'.repeat(51)}" is longer than 50 characters`, fields: { tags: `"${'x'.repeat(51)}" is longer than 50 characters` },
      });
      assert.deepEqual(await tagsOf(`/api/v1/issues/${issue.id}`), ['billing']);
    });

    it('an unknown issue or conversation: the API\'s detail, exit 1', async () => {
      assert.deepEqual(await shell.run('issue', 'tag', 'TG-999', 'billing'), { code: 1, stdout: '', stderr: 'error: issue not found\n' });
      const missing = await shell.run('conversation', 'tag', '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', 'billing');
      assert.deepEqual(missing, { code: 1, stdout: '', stderr: 'error: conversation not found\n' });
    });

    it('a read-only key cannot change tags: the API\'s detail, exit 1', async () => {
      const issue = await newIssue([]);
      const result = await server.shell(server.a.readOnlyKey).run('issue', 'tag', issue.shortcode, 'billing');
      assert.deepEqual(result, { code: 1, stdout: '', stderr: 'error: this API key is read-only: only GET requests are allowed\n' });
    });

    it('conversation tag adds, removes and replaces a conversation\'s tags the same way', async () => {
      const conversation = await importConversation(server.a.api, product.id, { title: 'Refund please' });
      assert.equal(await shell.text('conversation', 'tag', conversation.id, 'billing', 'refund'), '"Refund please" is tagged billing, refund.\n');
      assert.equal(await shell.text('conversation', 'tag', conversation.id, '--remove', 'Refund', 'vip'), '"Refund please" is tagged billing, vip.\n');
      const body = await shell.json('conversation', 'tag', conversation.id, '--set', 'urgent');
      const { messages: _messages, linked_issues: _linked, ...detail } = (await server.a.api.get(`/api/v1/conversations/${conversation.id}`)).body.data;
      assert.deepEqual(body, { data: { ...detail, tags: ['urgent'] } }, 'the PATCH answers the conversation without its messages');
      assert.equal(await shell.text('conversation', 'tag', conversation.id), '"Refund please" is tagged urgent.\n');
    });

    it('show prints the tags of an issue and of a conversation, and leaves the line out without any', async () => {
      const issue = await newIssue(['billing', 'needs design']);
      assert.match(await shell.text('issue', 'show', issue.shortcode), /^tags +billing, needs design$/m);
      const conversation = await importConversation(server.a.api, product.id, { title: 'Refund please' });
      assert.doesNotMatch(await shell.text('conversation', 'show', conversation.id), /^tags/m);
      await shell.text('conversation', 'tag', conversation.id, 'refund', 'vip');
      assert.match(await shell.text('conversation', 'show', conversation.id), /^tags +refund, vip$/m);
    });
  });
}
