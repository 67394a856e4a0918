// ldk search: the workspace's issues, conversations and contacts that match, one line each in a
// table per type, the matches marked (bold on a colour terminal, [ ] elsewhere); --json the API's answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from '../helpers/databases.js';
import { createIssue, createProduct, importConversation } from '../helpers/factories.js';
import { type ListeningContext, listeningContext, type Shell } from '../helpers/ldk.js';

const ESCAPE = '\x1b[';

for (const dialect of DIALECTS) {
  describe(`ldk search [${dialect}]`, () => {
    let server: ListeningContext;
    let shell: Shell;
    let product: any;
    let other: any;
    let issue: any;
    let conversation: any;
    before(async () => {
      server = await listeningContext(dialect);
      product = await createProduct(server.a.api, { name: 'Search App', slug: 'search-app', issue_prefix: 'SR' });
      other = await createProduct(server.a.api, { issue_prefix: 'OT' });
      issue = await createIssue(server.a.api, product.id, { title: 'Zephyr checkout fails', description: 'Tapping Pay does nothing on Android' });
      conversation = await importConversation(server.a.api, product.id, {
        title: 'Zephyr order lost', contact: { name: 'Zephyr Jones', email: 'zj@example.com' }, body: 'El botón de pago no funciona',
      });
      await createIssue(server.a.api, other.id, { title: 'Zephyr sync stalls' });
      shell = server.shell(server.a.key);
    });
    after(() => server.close());

    it('prints a table per type (issues, conversations, contacts), one line per result, matches between [ and ] into a pipe', async () => {
      const out = await shell.text('search', 'zephyr');
      const [issues, conversations, contacts, summary] = out.trimEnd().split('\n\n');
      assert.match(issues, /^ISSUE +STATUS +TITLE +MATCH\n/);
      assert.match(issues, /^SR-1 +pending +Zephyr checkout fails +\[Zephyr\] checkout fails/m);
      assert.match(issues, /^OT-1 +pending +Zephyr sync stalls +\[Zephyr\] sync stalls$/m);
      assert.match(conversations, new RegExp(`^CONVERSATION +STATUS +TITLE +MATCH\n${conversation.id}  open +Zephyr order lost +\\[Zephyr\\] order lost$`));
      assert.match(contacts, new RegExp(`^CONTACT +NAME +MATCH\n${conversation.contact.id}  Zephyr Jones <zj@example.com>  \\[Zephyr\\] Jones`));
      assert.equal(summary, 'Showing 1–4 of 4');
    });

    it('finds words without their accents and by the start of the last one', async () => {
      const out = await shell.text('search', 'boton', 'fun');
      assert.match(out, new RegExp(`^${conversation.id}  open +Zephyr order lost +El \\[botón\\] de pago no \\[funciona\\]$`, 'm'));
      assert.match(out, /^Showing 1–1 of 1$/m);
    });

    it('--type keeps those kinds, --product (slug or id) that product\'s records, --limit pages', async () => {
      assert.deepEqual((await shell.json('search', 'zephyr', '--type', 'contact,conversation')).data.map((result: any) => result.type).sort(), ['contact', 'conversation']);
      assert.deepEqual((await shell.json('search', 'zephyr', '--type', 'issue', '--product', 'search-app')).data.map((result: any) => result.id), [issue.id]);
      assert.deepEqual((await shell.json('search', 'zephyr', '--type', 'issue', '--product', other.id)).data.map((result: any) => result.issue.shortcode), ['OT-1']);
      const page = await shell.text('search', 'zephyr', '--limit', '1');
      assert.match(page, /^Showing 1–1 of 4 · next page: --offset 1$/m);
    });

    it('a shortcode puts its issue first', async () => {
      const body = await shell.json('search', 'sr-1');
      assert.equal(body.data[0].id, issue.id);
    });

    it('--json prints the API\'s answer unchanged', async () => {
      const body = await shell.json('search', 'zephyr', '--type', 'issue,contact');
      assert.deepEqual(body, (await server.a.api.get('/api/v1/search?q=zephyr&types=issue,contact')).body);
    });

    it('says when nothing matches', async () => {
      assert.equal(await shell.text('search', 'nothingmatchesthis'), 'Nothing found.\n');
    });

    it('on a colour terminal the matches are bold; with NO_COLOR, between [ and ]', async () => {
      const coloured = await shell.onTerminal(['search', 'boton', '--type', 'conversation']);
      assert.equal(coloured.code, 0, coloured.stdout);
      assert.ok(coloured.stdout.includes(`El ${ESCAPE}1mbotón${ESCAPE}22m de pago`), JSON.stringify(coloured.stdout));
      const plain = await shell.onTerminal(['search', 'boton', '--type', 'conversation'], { env: { NO_COLOR: '1' } });
      assert.ok(plain.stdout.includes('El [botón] de pago') && !plain.stdout.includes(ESCAPE), JSON.stringify(plain.stdout));
    });

    it('a narrow terminal cuts the match, keeping its marks whole', async () => {
      const narrow = await shell.onTerminal(['search', 'funciona', '--type', 'conversation'], { columns: 90 });
      const row = narrow.stdout.split('\r\n').find((line) => line.startsWith(conversation.id))!;
      assert.equal([...row.replace(/\x1b\[\d+m/g, '')].length, 90);
      assert.ok(row.endsWith('…'), JSON.stringify(row));
      assert.equal((row.match(/\x1b\[1m/g) ?? []).length, (row.match(/\x1b\[22m/g) ?? []).length, 'every bold is closed');
    });

    it('words the API refuses: its detail, exit 1; --json prints the error envelope', async () => {
      assert.deepEqual(await shell.run('search', ' '), { code: 1, stdout: '', stderr: 'error: invalid querystring: q must not be empty\n' });
      const json = await shell.run('search', 'x'.repeat(201), '--json');
      assert.equal(json.code, 1);
      assert.equal(JSON.parse(json.stdout).error_code, 'validation_error');
    });

    it('bad options are usage errors (exit 2), before any request; an unknown product slug fails (exit 1)', async () => {
      assert.equal((await shell.run('search', 'zephyr', '--type', 'widget')).code, 2);
      assert.equal((await shell.run('search', 'zephyr', '--limit', '0')).code, 2);
      assert.equal((await shell.run('search')).code, 2);
      assert.deepEqual(await shell.run('search', 'zephyr', '--product', 'nope'), { code: 1, stdout: '', stderr: 'error: no product with the slug nope\n' });
    });
  });
}
