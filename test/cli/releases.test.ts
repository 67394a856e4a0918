// ldk release …: releases that ship issues named by shortcode, or every done issue; drafts and
// their publication.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createIssue, createProduct, createRelease } from '../helpers/factories.js';
import { type ListeningContext, listeningContext, type Shell } from '../helpers/ldk.js';

describe('ldk release', () => {
  let server: ListeningContext;
  let shell: Shell;
  let product: any;
  before(async () => {
    server = await listeningContext('sqlite');
    product = await createProduct(server.a.api, { name: 'Release Train', issue_prefix: 'RT' });
    shell = server.shell(server.a.key);
    await shell.text('init', '--product', product.slug);
  });
  after(() => server.close());

  const statusOf = async (ref: string) => (await server.a.api.get(`/api/v1/issues/${ref}`)).body.data.status;

  it('create --issues ships issues named by shortcode or UUID', async () => {
    const [first, second] = [await createIssue(server.a.api, product.id, { title: 'First fix' }), await createIssue(server.a.api, product.id, { title: 'Second fix' })];
    const out = await shell.text('release', 'create', '--title', 'Spring fixes', '--version', '1.1.0', '--issues', `${first.shortcode.toLowerCase()}, ${second.id}`);
    assert.match(out, /^Created 1\.1\.0 "Spring fixes" \(published just now, id [0-9a-f-]{36}\), shipping 2 issues\.\n\nSTATUS +PRIORITY +ISSUE\nreleased +normal +First fix\nreleased +normal +Second fix\n$/);
    assert.equal(await statusOf(first.shortcode), 'released');
    assert.equal(await statusOf(second.shortcode), 'released');
  });

  it('create --all-done ships every done issue of the product, and only those', async () => {
    const done = await createIssue(server.a.api, product.id, { title: 'Done one', status: 'done' });
    const pending = await createIssue(server.a.api, product.id, { title: 'Still pending' });
    const body = await shell.json('release', 'create', '--title', 'Summer', '--all-done', '-d', 'Notes');
    assert.deepEqual(body.data.issues.map((issue: any) => issue.id), [done.id]);
    assert.equal(body.data.description, 'Notes');
    assert.equal(await statusOf(pending.shortcode), 'pending');
  });

  it('create --all-done with nothing done creates nothing (exit 1)', async () => {
    const before = (await server.a.api.get('/api/v1/releases')).body.pagination.total;
    const result = await shell.run('release', 'create', '--title', 'Empty', '--all-done');
    assert.deepEqual(result, { code: 1, stdout: '', stderr: 'error: no done issues to release: nothing was created (drop --all-done to create a release without issues)\n' });
    assert.equal((await server.a.api.get('/api/v1/releases')).body.pagination.total, before);
  });

  it('create with an issue of another product: the API\'s detail, exit 1', async () => {
    const stranger = await createIssue(server.a.api, (await createProduct(server.a.api)).id);
    const result = await shell.run('release', 'create', '--title', 'Wrong', '--issues', stranger.shortcode);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: .*issue_ids/);
  });

  it('create --draft, then publish; publishing again changes nothing', async () => {
    const draft = await shell.json('release', 'create', '--title', 'Autumn', '--version', '2.0.0', '--draft');
    assert.equal(draft.data.released_at, null);
    assert.equal(await shell.text('release', 'publish', draft.data.id), 'Published 2.0.0 "Autumn".\n');
    const published = (await server.a.api.get(`/api/v1/releases/${draft.data.id}`)).body.data;
    assert.notEqual(published.released_at, null);
    assert.equal(await shell.text('release', 'publish', draft.data.id), '2.0.0 "Autumn" is already published just now; nothing changed.\n');
    assert.deepEqual(await shell.json('release', 'publish', draft.data.id), { data: published });
  });

  it('list: a table with version, product, issue count and publication; --json is the API\'s answer', async () => {
    await createRelease(server.a.api, product.id, { title: 'Old draft', released_at: null });
    const out = await shell.text('release', 'list');
    assert.match(out, /^RELEASE +VERSION +PRODUCT +ISSUES +PUBLISHED +TITLE$/m);
    assert.match(out, /^[0-9a-f-]{36}  — +Release Train +0 +draft +Old draft$/m);
    assert.match(out, /^[0-9a-f-]{36}  1\.1\.0 +Release Train +2 +just now +Spring fixes$/m);
    assert.deepEqual(await shell.json('release', 'list', '--limit', '2'), (await server.a.api.get(`/api/v1/releases?product_id=${product.id}&limit=2`)).body);
  });

  it('show: the release and its issues', async () => {
    const [latest] = (await shell.json('release', 'list', '--limit', '5')).data.filter((release: any) => release.title === 'Spring fixes');
    const out = await shell.text('release', 'show', latest.id);
    assert.match(out, /^Spring fixes\n\nversion +1\.1\.0\nproduct +Release Train\npublished +just now\n/);
    assert.match(out, /^released +normal +First fix$/m);
    assert.deepEqual(await shell.json('release', 'show', latest.id), (await server.a.api.get(`/api/v1/releases/${latest.id}`)).body);
    const unknown = await shell.run('release', 'show', '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091');
    assert.deepEqual(unknown, { code: 1, stdout: '', stderr: 'error: release not found\n' });
  });
});
