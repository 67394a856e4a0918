// ldk's frame: --help everywhere without a server or key, the exit codes, login and its auth file,
// the environment overrides, a folder's product, and what happens when the server cannot be used.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createProduct } from '../helpers/factories.js';
import { unique } from '../helpers/harness.js';
import { type ListeningContext, listeningContext, Shell, tempDir } from '../helpers/ldk.js';
import { REFUSED_URL } from '../helpers/ports.js';

/** cli/README.md's commands, and the two ldk adds (completion, and the groups' own help). */
const API_COMMANDS = [
  'login', 'init', 'whoami', 'member list',
  'product list', 'product show', 'product create', 'product update',
  'issue list', 'issue show', 'issue create', 'issue update', 'issue start', 'issue done', 'issue dismiss', 'issue reopen', 'issue assign',
  'conversation list', 'conversation show', 'conversation update', 'conversation reply',
  'release list', 'release show', 'release create', 'release publish',
];
const OTHER_COMMANDS = ['', 'member', 'product', 'issue', 'conversation', 'release', 'mcp', 'completion'];

describe('ldk without a server', () => {
  const shell = new Shell();

  it('prints --help for every command, with no server and no key, and exits 0', async () => {
    for (const command of [...API_COMMANDS, ...OTHER_COMMANDS]) {
      const words = command.split(' ').filter(Boolean);
      const result = await shell.run(...words, '--help');
      assert.equal(result.code, 0, `ldk ${command} --help: ${result.stderr}`);
      assert.match(result.stdout, new RegExp(`^Usage: ldk ${words.join(' ')}`), command);
    }
  });

  it('offers --json on every command that calls the API', async () => {
    for (const command of API_COMMANDS) {
      assert.match(await shell.text(...command.split(' '), '--help'), /--json\s+print the body of the API's answer/, command);
    }
  });

  it('prints its version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../cli/package.json', import.meta.url), 'utf8'));
    assert.equal((await shell.text('--version')).trim(), version);
  });

  it('exits 2 on bad usage, with the problem on stderr and nothing on stdout', async () => {
    const cases = [
      [],
      ['frobnicate'],
      ['issue', 'list', '--bogus'],
      ['issue', 'list', '--status', 'pending,nope'],
      ['issue', 'list', '--limit', '0'],
      ['issue', 'list', '--limit', 'ten'],
      ['issue', 'assign', 'APP-1', 'someone'],
      ['issue', 'create'],
      ['issue', 'update', 'APP-1', '--priority', 'critical'],
      ['conversation', 'list', '--type', 'email'],
      ['release', 'create', '--version', '1.0'],
      ['release', 'create', '--title', 'T', '--issues', 'APP-1', '--all-done'],
      ['completion', 'fish'],
    ];
    for (const args of cases) {
      const result = await shell.run(...args);
      assert.equal(result.code, 2, `ldk ${args.join(' ')}: exit ${result.code}\n${result.stderr}`);
      assert.match(result.stderr, /error|Usage/, args.join(' '));
      if (args.length > 0) assert.equal(result.stdout, '', args.join(' '));
    }
  });

  it('takes --version after a subcommand as the subcommand\'s option', async () => {
    const result = await shell.run('release', 'create', '--version', '2.4.0');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /required option '--title <title>' not specified/);
  });

  it('without a key, says how to log in and exits 1', async () => {
    const result = await shell.run('whoami');
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, 'error: no server configured: run `ldk login --url URL --key KEY`, or set LOOPDESK_URL\n');
    const keyOnly = await new Shell({ LOOPDESK_URL: 'http://127.0.0.1:9' }).run('issue', 'list');
    assert.equal(keyOnly.code, 1);
    assert.match(keyOnly.stderr, /^error: no API key configured: run `ldk login --url URL --key KEY`, or set LOOPDESK_API_KEY\n$/);
  });

  it('when the server is unreachable, says so in one line and exits 1', async () => {
    const result = await new Shell({ LOOPDESK_URL: REFUSED_URL, LOOPDESK_API_KEY: 'ldk_x' }).run('issue', 'list');
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, `error: cannot reach the Loopdesk server at ${REFUSED_URL} (ECONNREFUSED): is it running? Check LOOPDESK_URL or ldk login --url\n`);
  });
});

describe('ldk login, whoami and the auth file', () => {
  let server: ListeningContext;
  before(async () => {
    server = await listeningContext('sqlite');
  });
  after(() => server.close());

  it('checks the key, then saves URL and key in ~/.config/loopdesk/auth.json with mode 0600', async () => {
    const shell = new Shell();
    const out = await shell.text('login', '--url', `${server.url}/`, '--key', server.a.key);
    const path = join(shell.home, '.config', 'loopdesk', 'auth.json');
    assert.equal(out, `Logged in to ${server.url} as Alpha Owner (owner), workspace ${server.a.id}.\nSaved to ${path}.\n`);
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { url: server.url, key: server.a.key });
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(shell.home, '.config', 'loopdesk')).mode & 0o777, 0o700);

    const me = await shell.json('whoami');
    assert.equal(me.data.member.id, server.a.owner.id);
  });

  it('writes under XDG_CONFIG_HOME when it is set', async () => {
    const configHome = tempDir('ldk-xdg-');
    const shell = new Shell({ XDG_CONFIG_HOME: configHome });
    await shell.text('login', '--url', server.url, '--key', server.a.key);
    assert.ok(existsSync(join(configHome, 'loopdesk', 'auth.json')));
    assert.ok(!existsSync(join(shell.home, '.config')));
    assert.equal((await shell.json('whoami')).data.workspace_id, server.a.id);
  });

  it('saves nothing when the server refuses the key (exit 1, the API\'s detail)', async () => {
    const shell = new Shell();
    const result = await shell.run('login', '--url', server.url, '--key', server.a.revokedKey);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: invalid or revoked API key \(check the key: ldk login, or LOOPDESK_API_KEY\)\n$/);
    assert.ok(!existsSync(join(shell.home, '.config', 'loopdesk', 'auth.json')));
  });

  it('prints GET /me\'s body with --json', async () => {
    const shell = new Shell();
    const body = await shell.json('login', '--url', server.url, '--key', server.a.key);
    assert.deepEqual(body, (await server.a.api.get('/api/v1/me')).body);
  });

  it('lets LOOPDESK_API_KEY and LOOPDESK_URL each override the auth file on its own', async () => {
    const shell = new Shell();
    await shell.text('login', '--url', server.url, '--key', server.a.key);
    assert.equal((await shell.withEnv({ LOOPDESK_API_KEY: server.b.key }).json('whoami')).data.workspace_id, server.b.id);
    const withUrl = await shell.withEnv({ LOOPDESK_URL: REFUSED_URL }).run('whoami');
    assert.equal(withUrl.code, 1);
    assert.match(withUrl.stderr, new RegExp(`cannot reach the Loopdesk server at ${REFUSED_URL}`));
  });

  it('whoami names the member, workspace, key, server and the folder\'s product', async () => {
    const shell = server.shell(server.a.key);
    const me = (await server.a.api.get('/api/v1/me')).body.data;
    const lines = (await shell.text('whoami')).split('\n');
    assert.deepEqual(lines.slice(0, 5), [
      'member     Alpha Owner (owner)',
      `member id  ${server.a.owner.id}`,
      `workspace  ${server.a.id}`,
      `api key    ${me.api_key_id}`,
      `server     ${server.url}`,
    ]);
    const memberless = await server.shell(server.a.memberlessKey).text('whoami');
    assert.match(memberless, /^member +none \(a key without a member\)$/m);
    assert.doesNotMatch(memberless, /member id/);
  });

  it('a revoked key: the API\'s detail on stderr, exit 1; with --json the error body on stdout', async () => {
    const shell = server.shell(server.a.revokedKey);
    const result = await shell.run('issue', 'list', '--json');
    assert.equal(result.code, 1);
    assert.deepEqual(JSON.parse(result.stdout), { error_code: 'unauthorized', detail: 'invalid or revoked API key' });
    assert.equal(result.stderr, 'error: invalid or revoked API key (check the key: ldk login, or LOOPDESK_API_KEY)\n');
  });
});

describe('ldk init and .loopdesk.json', () => {
  let server: ListeningContext;
  before(async () => {
    server = await listeningContext('sqlite');
  });
  after(() => server.close());

  it('ties a folder to a product by slug or id; commands in its subfolders use it', async () => {
    const product = await createProduct(server.a.api, { name: unique('Folder product') });
    const other = await createProduct(server.a.api);
    await server.a.api.post('/api/v1/issues', { product_id: other.id, title: 'Elsewhere' });
    const shell = server.shell(server.a.key);
    const out = await shell.text('init', '--product', product.slug);
    assert.equal(out, `This folder now works on ${product.name} (${product.slug}, issues ${product.issue_prefix}-…): wrote ${join(shell.cwd, '.loopdesk.json')}.\n`);
    assert.deepEqual(JSON.parse(readFileSync(join(shell.cwd, '.loopdesk.json'), 'utf8')), { product: product.id });

    shell.cwd = join(shell.cwd, 'src', 'deep');
    mkdirSync(shell.cwd, { recursive: true });
    const created = await shell.json('issue', 'create', 'Filed from a subfolder');
    assert.equal(created.data.product_id, product.id);
    const listed = await shell.json('issue', 'list');
    assert.deepEqual(listed.data.map((issue: any) => issue.title), ['Filed from a subfolder']);
    assert.match(await shell.text('whoami'), new RegExp(`^product +${product.id} \\(from .*\\.loopdesk\\.json\\)$`, 'm'));
    const everywhere = await shell.json('issue', 'list', '--product', other.slug);
    assert.deepEqual(everywhere.data.map((issue: any) => issue.title), ['Elsewhere']);

    const byId = new Shell(shell.env);
    assert.deepEqual((await byId.json('init', '--product', product.id)).data, product);
  });

  it('checks that the product exists: exit 1, no file', async () => {
    const shell = server.shell(server.a.key);
    const bySlug = await shell.run('init', '--product', 'no-such-product');
    assert.equal(bySlug.code, 1);
    assert.equal(bySlug.stderr, 'error: no product with the slug no-such-product\n');
    const foreign = await createProduct(server.b.api);
    const byId = await shell.run('init', '--product', foreign.id);
    assert.equal(byId.code, 1);
    assert.equal(byId.stderr, 'error: product not found\n');
    assert.ok(!existsSync(join(shell.cwd, '.loopdesk.json')));
  });

  it('a command that needs a product, in a folder without one: exit 2, saying how to choose', async () => {
    const result = await server.shell(server.a.key).run('issue', 'create', 'Where does this go?');
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'error: which product? Pass --product SLUG|ID, or tie this folder to one with ldk init --product SLUG|ID\n');
  });
});
