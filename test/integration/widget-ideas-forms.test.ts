// Ideas (listing and upvotes, exact under concurrency) and forms (proof of work, honeypot, fields)
// of the widget API (docs/widget.md).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { Migrator, type Kysely } from 'kysely';
import { createDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { freshDatabaseUrl } from '../helpers/databases.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { identitySecret, signIdentity, solvedAltcha, startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const IDEA_KEYS = ['created_at', 'id', 'status', 'title', 'upvoted', 'upvotes'];

async function ideaOf(ctx: TestContext, productId: string, title: string, status?: string) {
  const idea = await importConversation(ctx.a.api, productId, { type: 'idea', title });
  if (status) await ctx.a.api.patch(`/api/v1/conversations/${idea.id}`, { status });
  return idea;
}

describeEachDialect('widget ideas', (ctx) => {
  const upvote = (widgetKey: string, token: string, id: string, method = 'POST') =>
    visitor(ctx(), token).request(method, widgetPath(widgetKey, `/ideas/${id}/upvote`));

  it('lists the product\'s ideas, never dismissed ones or other types, sorted top or new', async () => {
    const product = await widgetProduct(ctx());
    const older = await ideaOf(ctx(), product.id, 'Older idea');
    const newer = await ideaOf(ctx(), product.id, 'Newer idea', 'in_progress');
    await ideaOf(ctx(), product.id, 'Dismissed idea', 'dismissed');
    await importConversation(ctx().a.api, product.id, { type: 'ticket', title: 'A ticket' });
    const { token } = await startSession(ctx(), product.widget_key);
    await upvote(product.widget_key, token, older.id);

    const top = await ctx().client(null).get(widgetPath(product.widget_key, '/ideas'));
    assert.equal(top.status, 200);
    assert.deepEqual(top.body.data.map((idea: { id: string }) => idea.id), [older.id, newer.id]);
    assert.deepEqual(Object.keys(top.body.data[0]).sort(), IDEA_KEYS);
    assert.deepEqual(top.body.data[0], { id: older.id, title: 'Older idea', status: 'open', upvotes: 1, created_at: older.created_at, upvoted: false });
    assert.equal(top.body.pagination.total, 2);
    const fresh = await visitor(ctx(), token).get(widgetPath(product.widget_key, '/ideas?sort=new'));
    assert.deepEqual(fresh.body.data.map((idea: any) => [idea.id, idea.upvoted]), [[newer.id, false], [older.id, true]]);
    const bad = await ctx().client(null).get(widgetPath(product.widget_key, '/ideas?sort=hot&limit=0'));
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body.fields).sort(), ['limit', 'sort']);
  });

  it('needs a session to list ideas when ideas_public is off', async () => {
    const product = await widgetProduct(ctx(), { ideas_public: false });
    assert.equal((await ctx().client(null).get(widgetPath(product.widget_key, '/ideas'))).status, 401);
    const { token } = await startSession(ctx(), product.widget_key);
    assert.equal((await visitor(ctx(), token).get(widgetPath(product.widget_key, '/ideas'))).status, 200);
  });

  it('counts one upvote per contact, idempotent both ways, as the conversation\'s upvotes in /api/v1', async () => {
    const product = await widgetProduct(ctx());
    const idea = await ideaOf(ctx(), product.id, 'Dark mode');
    const { token } = await startSession(ctx(), product.widget_key);
    const other = await startSession(ctx(), product.widget_key);
    const answers = [];
    for (const [t, method] of [[token, 'POST'], [token, 'POST'], [other.token, 'POST'], [token, 'DELETE'], [token, 'DELETE']] as const) {
      const res = await upvote(product.widget_key, t, idea.id, method);
      assert.equal(res.status, 200, res.text);
      answers.push(res.body.data);
    }
    assert.deepEqual(answers, [
      { upvotes: 1, upvoted: true }, { upvotes: 1, upvoted: true }, { upvotes: 2, upvoted: true }, { upvotes: 1, upvoted: false }, { upvotes: 1, upvoted: false },
    ]);
    assert.equal((await ctx().a.api.get(`/api/v1/conversations/${idea.id}`)).body.data.upvotes, 1);
  });

  it('neither shows nor casts the votes of the customer whose email an unverified visitor types', async () => {
    const product = await widgetProduct(ctx());
    const idea = await ideaOf(ctx(), product.id, 'Offline mode');
    const customer = await startSession(ctx(), product.widget_key, { email: 'known@example.com' });
    assert.equal((await upvote(product.widget_key, customer.token, idea.id)).body.data.upvotes, 1);

    const listed = async (token: string) =>
      (await visitor(ctx(), token).get(widgetPath(product.widget_key, '/ideas'))).body.data.find((row: { id: string }) => row.id === idea.id);
    const impostor = await startSession(ctx(), product.widget_key, { email: 'known@example.com' });
    const stranger = await startSession(ctx(), product.widget_key, { email: 'unknown@example.com' });
    assert.deepEqual(await listed(impostor.token), await listed(stranger.token), 'a known email looks like an unknown one');
    assert.equal((await listed(impostor.token)).upvoted, false);
    assert.deepEqual((await upvote(product.widget_key, impostor.token, idea.id)).body.data, { upvotes: 2, upvoted: true }, 'its own vote');
    assert.deepEqual((await upvote(product.widget_key, impostor.token, idea.id, 'DELETE')).body.data, { upvotes: 1, upvoted: false });
    assert.equal((await listed(customer.token)).upvoted, true, 'the customer\'s vote stands');
  });

  it('counts a verified customer\'s upvote once, from any session', async () => {
    const product = await widgetProduct(ctx());
    const secret = await identitySecret(ctx(), product.id);
    const idea = await ideaOf(ctx(), product.id, 'Export to CSV');
    const sessions = [];
    for (let i = 0; i < 2; i++) sessions.push(await startSession(ctx(), product.widget_key, { identity_token: await signIdentity(secret, { sub: 'user-42', aud: product.widget_key }) }));
    assert.deepEqual((await upvote(product.widget_key, sessions[0].token, idea.id)).body.data, { upvotes: 1, upvoted: true });
    assert.deepEqual((await upvote(product.widget_key, sessions[1].token, idea.id)).body.data, { upvotes: 1, upvoted: true });
  });

  it('counts 20 concurrent upvotes of one contact once, and of 20 contacts twenty times', async () => {
    const product = await widgetProduct(ctx());
    const idea = await ideaOf(ctx(), product.id, 'Concurrent');
    const { token } = await startSession(ctx(), product.widget_key);
    const same = await Promise.all(Array.from({ length: 20 }, () => upvote(product.widget_key, token, idea.id)));
    assert.ok(same.every((res) => res.status === 200 && res.body.data.upvoted));
    assert.equal((await ctx().a.api.get(`/api/v1/conversations/${idea.id}`)).body.data.upvotes, 1);
    const tokens = await Promise.all(Array.from({ length: 20 }, async () => (await startSession(ctx(), product.widget_key)).token));
    const many = await Promise.all(tokens.map((t) => upvote(product.widget_key, t, idea.id)));
    assert.ok(many.every((res) => res.status === 200));
    assert.deepEqual(many.map((res) => res.body.data.upvotes).sort((x, y) => x - y), Array.from({ length: 20 }, (_, i) => i + 2));
    assert.equal((await ctx().a.api.get(`/api/v1/conversations/${idea.id}`)).body.data.upvotes, 21);
    const removed = await Promise.all(Array.from({ length: 20 }, () => upvote(product.widget_key, token, idea.id, 'DELETE')));
    assert.ok(removed.every((res) => res.status === 200 && !res.body.data.upvoted));
    assert.equal((await ctx().a.api.get(`/api/v1/conversations/${idea.id}`)).body.data.upvotes, 20);
  });

  it('answers 404 for what is not an upvotable idea of this product, and 401 without a session', async () => {
    const product = await widgetProduct(ctx());
    const { token } = await startSession(ctx(), product.widget_key);
    const dismissed = await ideaOf(ctx(), product.id, 'Gone', 'dismissed');
    const ticket = await importConversation(ctx().a.api, product.id, { type: 'ticket' });
    const elsewhere = await ideaOf(ctx(), (await createProduct(ctx().a.api)).id, 'Elsewhere');
    for (const id of [dismissed.id, ticket.id, elsewhere.id, 'nope']) {
      assert.equal((await upvote(product.widget_key, token, id)).status, 404, id);
    }
    assert.equal((await ctx().client(null).post(widgetPath(product.widget_key, `/ideas/${elsewhere.id}/upvote`))).status, 401);
  });
});

describeEachDialect('widget forms', (ctx) => {
  const send = (widgetKey: string, body: unknown) => ctx().client(null).post(widgetPath(widgetKey, '/forms'), body);

  it('files a form as a conversation with source form, its contact and its fields', async () => {
    const product = await widgetProduct(ctx());
    const res = await send(product.widget_key, {
      type: 'feedback', title: '  Invoice ', body: 'Please change the address', name: 'Ada', email: 'Form@Example.com', fields: { plan: 'pro', seats: 3 },
    });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body.data).sort(), ['id', 'status']);
    assert.equal(res.body.data.status, 'open');
    const team = (await ctx().a.api.get(`/api/v1/conversations/${res.body.data.id}`)).body.data;
    assert.deepEqual([team.source, team.channel, team.type, team.title, team.form_fields], ['form', 'form', 'feedback', 'Invoice', { plan: 'pro', seats: 3 }]);
    assert.deepEqual(team.contact, { id: team.contact_id, name: 'Ada', email: 'form@example.com', verified: false });
    assert.deepEqual(team.messages.map((m: any) => [m.sender_type, m.body]), [['contact', 'Please change the address']]);
  });

  it('validates title, body and fields (at most 16 KiB)', async () => {
    const product = await widgetProduct(ctx());
    const missing = await send(product.widget_key, { type: 'chat', fields: [] });
    assert.equal(missing.status, 400);
    assert.deepEqual(Object.keys(missing.body.fields).sort(), ['body', 'fields', 'title', 'type']);
    const big = await send(product.widget_key, { title: 'Big', body: 'x', fields: { text: 'x'.repeat(16 * 1024) } });
    assert.equal(big.status, 400);
    assert.ok(big.body.fields.fields);
    const deep = await send(product.widget_key, { title: 'Deep', body: 'x', fields: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) });
    assert.equal(deep.status, 400);
  });

  it('answers a filled honeypot with a normal-looking 201 and stores nothing', async () => {
    const product = await createProduct(ctx().a.api);
    const before = await ctx().database.db.selectFrom('conversations').select('id').execute();
    const res = await send(product.widget_key, { title: 'Buy now', body: 'Spam', website: 'http://spam.example' });
    assert.equal(res.status, 201);
    assert.match(res.body.data.id, /^[0-9a-f-]{36}$/);
    assert.equal(res.body.data.status, 'open');
    assert.equal((await ctx().database.db.selectFrom('conversations').select('id').execute()).length, before.length);
  });

  it('needs a solved challenge with proof_of_work, and accepts each solution once', async () => {
    const product = await createProduct(ctx().a.api);
    const form = { title: 'Help', body: 'Please' };
    const missing = await send(product.widget_key, form);
    assert.equal(missing.status, 400);
    assert.ok(missing.body.fields.altcha);
    const altcha = await solvedAltcha(ctx(), product.widget_key);
    assert.equal((await send(product.widget_key, { ...form, altcha })).status, 201);
    const replay = await send(product.widget_key, { ...form, altcha });
    assert.equal(replay.status, 400);
    assert.match(replay.body.fields.altcha, /already been used/);
  });
});

describeEachDialect('migration 0015_upvote_voters', (ctx) => {
  it('keeps every upvote, its contact as its voter, and goes back', async () => {
    const database = createDatabase(await freshDatabaseUrl(ctx().dialect));
    try {
      const db = database.db as Kysely<any>;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(database.dialect.columnTypes, database.dialect.name) } });
      assert.equal((await migrator.migrateTo('0014_issue_candidates_index')).error, undefined);
      const now = new Date().toISOString();
      const [workspace, product, contact, idea] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await db.insertInto('workspaces').values({ id: workspace, name: 'W', created_at: now }).execute();
      await db.insertInto('products').values({
        id: product, workspace_id: workspace, name: 'P', slug: 'p', issue_prefix: 'P', widget_key: 'wk', product_key: 'pk', widget_config: null,
        domain: null, identity_secret: null, created_at: now, updated_at: now,
      }).execute();
      await db.insertInto('contacts').values({ id: contact, workspace_id: workspace, name: null, email: 'a@example.com', created_at: now, updated_at: now }).execute();
      await db.insertInto('conversations').values({
        id: idea, workspace_id: workspace, product_id: product, contact_id: contact, type: 'idea', source: 'api', status: 'open', priority: 'normal',
        title: 'Idea', upvotes: 1, created_at: now, updated_at: now,
      }).execute();
      const upvote = { conversation_id: idea, contact_id: contact, workspace_id: workspace, created_at: now };
      await db.insertInto('idea_upvotes').values(upvote).execute();

      await database.migrate();
      assert.deepEqual(await db.selectFrom('idea_upvotes').selectAll().execute(), [{ ...upvote, voter_id: contact }]);
      assert.equal((await migrator.migrateTo('0014_issue_candidates_index')).error, undefined);
      assert.deepEqual(await db.selectFrom('idea_upvotes').selectAll().execute(), [upvote]);
    } finally {
      await database.close();
    }
  });
});
