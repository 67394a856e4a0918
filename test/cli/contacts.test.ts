// ldk contact list|show: the workspace's contacts, found by the start of a name or email, and one
// with their profile and conversations.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from '../helpers/databases.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { type ListeningContext, listeningContext, type Shell } from '../helpers/ldk.js';

for (const dialect of DIALECTS) {
  describe(`ldk contact [${dialect}]`, () => {
    let server: ListeningContext;
    let shell: Shell;
    let ana: any;
    let bob: any;
    let first: any;
    let second: any;
    before(async () => {
      server = await listeningContext(dialect);
      const product = await createProduct(server.a.api);
      first = await importConversation(server.a.api, product.id, { title: 'Checkout fails', type: 'ticket', contact: { name: 'Ana Souza', email: 'ana@example.com' }, body: 'Pay does nothing' });
      second = await importConversation(server.a.api, product.id, { title: 'Dark mode please', type: 'idea', contact: { email: 'ana@example.com' } });
      const third = await importConversation(server.a.api, product.id, { title: 'Invoice', contact: { email: 'bob@example.org' } });
      [ana, bob] = [first.contact, third.contact];
      shell = server.shell(server.a.key);
    });
    after(() => server.close());

    it('list: newest first, with their conversations and when they last wrote', async () => {
      const out = await shell.text('contact', 'list');
      assert.match(out, /^CONTACT +CONVERSATIONS +LAST SEEN +NAME$/m);
      const rows = out.split('\n').filter((line) => /^[0-9a-f]{8}-/.test(line));
      assert.deepEqual(rows.map((row) => row.slice(0, 36)), [bob.id, ana.id]);
      assert.match(rows[0], /^\S+  1 +never +<bob@example\.org>$/);
      assert.match(rows[1], /^\S+  2 +just now +Ana Souza <ana@example\.com>$/);
      assert.match(out, /^Showing 1–2 of 2$/m);
    });

    it('list --q keeps those whose name or email starts with it, without case; --json prints the API\'s answer', async () => {
      assert.deepEqual((await shell.json('contact', 'list', '--q', 'ANA')).data.map((contact: any) => contact.id), [ana.id]);
      assert.deepEqual((await shell.json('contact', 'list', '--q', 'bob@')).data.map((contact: any) => contact.id), [bob.id]);
      assert.deepEqual(await shell.json('contact', 'list', '--limit', '1'), (await server.a.api.get('/api/v1/contacts?limit=1')).body);
      assert.equal(await shell.text('contact', 'list', '--q', 'zed'), 'Nothing found.\n');
    });

    it('show: the profile, then their conversations, newest first', async () => {
      const out = await shell.text('contact', 'show', ana.id);
      assert.match(out, /^Ana Souza <ana@example\.com>\n\nname +Ana Souza\nemail +ana@example\.com\nverified +no\nconversations +2\nlast seen +just now\n/);
      assert.match(out, new RegExp(`^CONVERSATION +STATUS +TYPE +TITLE\n${second.id}  open +idea +Dark mode please\n${first.id}  open +ticket +Checkout fails$`, 'm'));
      assert.deepEqual(await shell.json('contact', 'show', ana.id), (await server.a.api.get(`/api/v1/contacts/${ana.id}`)).body);
    });

    it('show: an unknown contact is the API\'s detail, exit 1; --json prints the error envelope', async () => {
      const unknown = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091';
      assert.deepEqual(await shell.run('contact', 'show', unknown), { code: 1, stdout: '', stderr: 'error: contact not found\n' });
      const json = await shell.run('contact', 'show', unknown, '--json');
      assert.equal(json.code, 1);
      assert.deepEqual(JSON.parse(json.stdout), { error_code: 'not_found', detail: 'contact not found' });
    });

    it('another workspace\'s contacts are not there', async () => {
      const other = server.shell(server.b.key);
      assert.equal(await other.text('contact', 'list'), 'Nothing found.\n');
      assert.equal((await other.run('contact', 'show', ana.id)).code, 1);
    });

    it('bad options and missing arguments are usage errors (exit 2)', async () => {
      assert.equal((await shell.run('contact', 'list', '--limit', '500')).code, 2);
      assert.equal((await shell.run('contact', 'show')).code, 2);
    });
  });
}
