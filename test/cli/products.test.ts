// ldk product … and ldk member list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ListeningContext, listeningContext, type Shell } from '../helpers/ldk.js';

describe('ldk product and member', () => {
  let server: ListeningContext;
  let shell: Shell;
  before(async () => {
    server = await listeningContext('sqlite');
    shell = server.shell(server.a.key);
  });
  after(() => server.close());

  it('product create: slug and prefix from the name, or as given; a taken prefix is the API\'s error', async () => {
    assert.match(await shell.text('product', 'create', 'Acme Mobile App'), /^Created Acme Mobile App \(slug acme-mobile-app, issues AMA-…\), id [0-9a-f-]{36}\.\n$/);
    const body = await shell.json('product', 'create', 'Web', '--slug', 'web-app', '--prefix', 'WEB');
    assert.deepEqual({ slug: body.data.slug, prefix: body.data.issue_prefix }, { slug: 'web-app', prefix: 'WEB' });
    const taken = await shell.run('product', 'create', 'Another', '--prefix', 'WEB');
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /^error: .*issue_prefix/);
  });

  it('product list: oldest first, marking this folder\'s product', async () => {
    await shell.text('init', '--product', 'web-app');
    const out = await shell.text('product', 'list');
    assert.match(out, /^PRODUCT +SLUG +PREFIX +CREATED +NAME\n\S+ +acme-mobile-app +AMA +just now +Acme Mobile App\n\S+ +web-app +WEB +just now +Web \(this folder\)\nShowing 1–2 of 2\n$/);
    assert.deepEqual(await shell.json('product', 'list'), (await server.a.api.get('/api/v1/products')).body);
  });

  it('product show: by slug or id, keys included', async () => {
    const product = (await shell.json('product', 'show', 'acme-mobile-app')).data;
    assert.deepEqual(await shell.json('product', 'show', product.id), { data: product });
    const out = await shell.text('product', 'show', 'acme-mobile-app');
    assert.match(out, /^Acme Mobile App\n\nslug +acme-mobile-app\nissue prefix +AMA\nwidget key +wk_\w+\nproduct key +pk_\w+\n/);
  });

  it('product update: name, slug and prefix; nothing to update is a usage error', async () => {
    assert.equal(await shell.text('product', 'update', 'web-app', '--name', 'Web App', '--prefix', 'WA'), 'Updated Web App (slug web-app, issues WA-…).\n');
    assert.equal((await shell.json('product', 'update', 'web-app', '--slug', 'web')).data.slug, 'web');
    assert.equal((await shell.run('product', 'update', 'web')).code, 2);
    const lower = await shell.run('product', 'update', 'web', '--prefix', 'wa');
    assert.equal(lower.code, 1);
    assert.match(lower.stderr, /^error: .*issue_prefix/);
  });

  it('member list: the workspace\'s members; --json is the API\'s answer', async () => {
    const out = await shell.text('member', 'list');
    assert.match(out, new RegExp(`^MEMBER +ROLE +JOINED +NAME\\n${server.a.owner.id}  owner +just now +Alpha Owner\\nShowing 1–1 of 1\\n$`));
    assert.deepEqual(await shell.json('member', 'list', '--limit', '1'), (await server.a.api.get('/api/v1/members?limit=1')).body);
  });
});
