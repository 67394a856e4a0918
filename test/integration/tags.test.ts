import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createIssue, createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, unique } from '../helpers/harness.js';

const invalid = (res: { status: number; body: any }) => {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.ok(res.body.fields?.tags, JSON.stringify(res.body));
};

for (const kind of ['issues', 'conversations'] as const) {
  const create = (api: any, productId: string) => (kind === 'issues' ? createIssue(api, productId) : importConversation(api, productId));

  describeEachDialect(`tags on /api/v1/${kind} [ext]`, (ctx) => {
    it('starts with [] in the detail and the list', async () => {
      const record = await create(ctx().a.api, (await createProduct(ctx().a.api)).id);
      assert.deepEqual(record.tags, []);
      const listed = await ctx().a.api.get(`/api/v1/${kind}?limit=1`);
      assert.deepEqual(listed.body.data[0].tags, []);
    });

    it('replaces the tags by PATCH: trimmed, duplicates dropped without case (first spelling kept), order kept', async () => {
      const record = await create(ctx().a.api, (await createProduct(ctx().a.api)).id);
      const res = await ctx().a.api.patch(`/api/v1/${kind}/${record.id}`, { tags: [' Billing ', 'android', 'BILLING', 'x'.repeat(50)] });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data.tags, ['Billing', 'android', 'x'.repeat(50)]);
      const again = await ctx().a.api.patch(`/api/v1/${kind}/${record.id}`, { tags: ['ios'] });
      assert.deepEqual(again.body.data.tags, ['ios']);
      assert.deepEqual((await ctx().a.api.get(`/api/v1/${kind}/${record.id}`)).body.data.tags, ['ios']);
    });

    for (const [what, tags] of [
      ['a blank tag', ['ok', '  ']],
      ['a tag over 50 characters after trimming', [` ${'x'.repeat(51)} `]],
      ['a tag with a comma', ['a,b']],
      ['more than 20 tags', Array.from({ length: 21 }, (_, i) => `t${i}`)],
      ['a tag that is not a string', [42]],
      ['tags that are not an array', 'billing'],
    ] as const) {
      it(`rejects ${what}`, async () => {
        const record = await create(ctx().a.api, (await createProduct(ctx().a.api)).id);
        invalid(await ctx().a.api.patch(`/api/v1/${kind}/${record.id}`, { tags }));
      });
    }

    it('filters the list by any of the comma-separated tags, without case', async () => {
      const productId = (await createProduct(ctx().a.api)).id;
      const [one, two, three] = [await create(ctx().a.api, productId), await create(ctx().a.api, productId), await create(ctx().a.api, productId)];
      const red = unique('red').replace(/\W/g, '');
      const blue = unique('blue').replace(/\W/g, '');
      await ctx().a.api.patch(`/api/v1/${kind}/${one.id}`, { tags: [red] });
      await ctx().a.api.patch(`/api/v1/${kind}/${two.id}`, { tags: [blue, red] });
      await ctx().a.api.patch(`/api/v1/${kind}/${three.id}`, { tags: ['other'] });
      const res = await ctx().a.api.get(`/api/v1/${kind}?tag=${red.toUpperCase()}, ${blue}&product_id=${productId}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data.map((row: any) => row.id), [two.id, one.id]);
      assert.equal(res.body.pagination.total, 2);
      const none = await ctx().b.api.get(`/api/v1/${kind}?tag=${red}`);
      assert.equal(none.body.pagination.total, 0);
    });

    it('rejects a tag filter with a NUL character with fields.tag (a 500 from PostgreSQL before)', async () => {
      const res = await ctx().a.api.get(`/api/v1/${kind}?tag=a%00b`);
      assert.equal(res.status, 400, res.text);
      assert.ok(res.body.fields?.tag, res.text);
    });

    it('records the change as *.updated with the previous tags', async () => {
      const record = await create(ctx().a.api, (await createProduct(ctx().a.api)).id);
      await ctx().a.api.patch(`/api/v1/${kind}/${record.id}`, { tags: ['first'] });
      await ctx().a.api.patch(`/api/v1/${kind}/${record.id}`, { tags: ['second'] });
      const type = kind === 'issues' ? 'issue.updated' : 'conversation.updated';
      const rows = await ctx().database.db.selectFrom('events').select('payload').where('type', '=', type).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(10).execute();
      const payload = rows.map((row) => JSON.parse(row.payload)).find((event) => event.data.id === record.id);
      assert.deepEqual(payload.data.tags, ['second']);
      assert.deepEqual(payload.data.previous.tags, ['first']);
    });

    it('refuses a read-only key (403) and answers 404 for another workspace\'s record', async () => {
      const record = await create(ctx().a.api, (await createProduct(ctx().a.api)).id);
      const readOnly = await ctx().client(ctx().a.readOnlyKey).patch(`/api/v1/${kind}/${record.id}`, { tags: ['x'] });
      assert.equal(readOnly.status, 403);
      assert.equal((await ctx().b.api.patch(`/api/v1/${kind}/${record.id}`, { tags: ['x'] })).status, 404);
    });
  });
}

describeEachDialect('GET /api/v1/tags [ext]', (ctx) => {
  it('lists the tags in use with their counts, in order of their lowercase names, the first spelling kept', async () => {
    const api = ctx().b.api;
    const productId = (await createProduct(api)).id;
    const issue = await createIssue(api, productId);
    const conversation = await importConversation(api, productId);
    const other = await importConversation(api, productId);
    await api.patch(`/api/v1/issues/${issue.id}`, { tags: ['Billing', 'zeta'] });
    await api.patch(`/api/v1/conversations/${conversation.id}`, { tags: ['billing', 'alpha'] });
    await api.patch(`/api/v1/conversations/${other.id}`, { tags: ['gone'] });
    await api.patch(`/api/v1/conversations/${other.id}`, { tags: [] });
    const res = await api.get('/api/v1/tags');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, [
      { name: 'alpha', conversations: 1, issues: 0 },
      { name: 'Billing', conversations: 1, issues: 1 },
      { name: 'zeta', conversations: 0, issues: 1 },
    ]);
    assert.deepEqual((await ctx().client(ctx().b.readOnlyKey).get('/api/v1/tags')).body.data.length, 3);
    assert.ok(!(await ctx().a.api.get('/api/v1/tags')).body.data.some((tag: any) => tag.name === 'zeta'));
  });
});
