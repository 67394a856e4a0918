import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertInvalid, assertNotFound } from '../helpers/answers.js';
import { apiKeyIdOf, createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, unique } from '../helpers/harness.js';

const BASE = '/api/v1/conversations';
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';

/** Lets the clock move on, so a changed updated_at is visible. */
const tick = () => sleep(5);

describeEachDialect('POST /api/v1/conversations [ext]', (ctx) => {
  it('imports a conversation with the defaults, open, without contact or messages', async () => {
    const productId = (await createProduct(ctx().a.api)).id;
    const res = await ctx().a.api.post(BASE, { product_id: productId, title: '  Export does nothing  ' });
    assert.equal(res.status, 201);
    const { id, created_at, ...rest } = res.body.data;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.match(created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(rest, {
      product_id: productId, contact_id: null, type: 'ticket', source: 'chat', channel: 'import', status: 'open', priority: 'normal',
      title: 'Export does nothing', ai_summary: null, rating: null, upvotes: 0, form_fields: null, tags: [], updated_at: created_at, contact: null, messages: [], linked_issues: [],
      assignee_id: null, last_message: null, waiting_since: null, snoozed_until: null, sla: null,
    });
  });

  it('takes type, source, priority, a contact and a first message from the contact, stored as sent', async () => {
    const productId = (await createProduct(ctx().a.api)).id;
    const data = await importConversation(ctx().a.api, productId, {
      type: 'idea', source: 'form', priority: 'high',
      contact: { name: '  Ada Lovelace ', email: 'Ada@Example.COM' }, body: '  Dark mode, please.\n',
    });
    // Imported, whatever source the importer names: the channel says how it came in [ext].
    assert.deepEqual([data.type, data.source, data.channel, data.priority, data.status], ['idea', 'form', 'import', 'high', 'open']);
    assert.deepEqual(data.contact, { id: data.contact_id, name: 'Ada Lovelace', email: 'ada@example.com', verified: false });
    assert.equal(data.messages.length, 1);
    const [message] = data.messages;
    assert.deepEqual(
      { ...message, id: undefined },
      {
        id: undefined, sender_type: 'contact', sender_id: data.contact_id, sender_name: 'Ada Lovelace', body: '  Dark mode, please.\n',
        created_at: data.created_at, internal: false,
        full_body: null, delivery: null, attachments: [],
      },
    );
    assert.deepEqual(
      [data.assignee_id, data.last_message, data.waiting_since],
      [null, { sender_type: 'contact', excerpt: 'Dark mode, please.', created_at: data.created_at }, data.created_at],
    );
    const detail = await ctx().a.api.get(`${BASE}/${data.id}`);
    assert.deepEqual(detail.body.data, data);
  });

  it('reuses the workspace\'s contact with the same email; a given name replaces the name, an omitted one keeps it', async () => {
    const productId = (await createProduct(ctx().a.api)).id;
    const email = `${unique('grace').replace(/\W/g, '')}@example.com`;
    const first = await importConversation(ctx().a.api, productId, { contact: { name: 'Grace', email } });
    const renamed = await importConversation(ctx().a.api, productId, { contact: { name: 'Grace Hopper', email: email.toUpperCase() } });
    const unnamed = await importConversation(ctx().a.api, productId, { contact: { email }, body: 'Hi' });
    assert.equal(renamed.contact_id, first.contact_id);
    assert.equal(unnamed.contact_id, first.contact_id);
    assert.deepEqual(renamed.contact, { id: first.contact_id, name: 'Grace Hopper', email, verified: false });
    assert.deepEqual(unnamed.contact, { id: first.contact_id, name: 'Grace Hopper', email, verified: false });
    assert.equal(unnamed.messages[0].sender_name, 'Grace Hopper');
    const again = await ctx().a.api.get(`${BASE}/${first.id}`);
    assert.equal(again.body.data.contact.name, 'Grace Hopper');
  });

  it('keeps contacts of different workspaces apart even with the same email', async () => {
    const email = `${unique('shared').replace(/\W/g, '')}@example.com`;
    const inA = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id, { contact: { name: 'In A', email } });
    const inB = await importConversation(ctx().b.api, (await createProduct(ctx().b.api)).id, { contact: { name: 'In B', email } });
    assert.notEqual(inA.contact_id, inB.contact_id);
    assert.equal((await ctx().a.api.get(`${BASE}/${inA.id}`)).body.data.contact.name, 'In A');
  });

  it('creates a new contact for each import without an email (name and email may be null)', async () => {
    const productId = (await createProduct(ctx().a.api)).id;
    const one = await importConversation(ctx().a.api, productId, { contact: { name: 'Visitor' } });
    const two = await importConversation(ctx().a.api, productId, { contact: { name: 'Visitor', email: null } });
    const anonymous = await importConversation(ctx().a.api, productId, { contact: {} });
    assert.notEqual(one.contact_id, two.contact_id);
    assert.deepEqual(one.contact, { id: one.contact_id, name: 'Visitor', email: null, verified: false });
    assert.deepEqual(anonymous.contact, { id: anonymous.contact_id, name: null, email: null, verified: false });
  });

  it('sends the first message of a contact-less import as the importing API key', async () => {
    const data = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id, { contact: null, body: 'Anonymous form' });
    assert.equal(data.contact, null);
    assert.equal(data.messages[0].sender_type, 'contact');
    assert.equal(data.messages[0].sender_id, await apiKeyIdOf(ctx().a.api));
    assert.equal(data.messages[0].sender_name, null);
  });

  it('creates no message when body is null', async () => {
    const data = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id, { body: null });
    assert.deepEqual(data.messages, []);
  });

  it('accepts a 500-character title after trimming and a 50,000-character body', async () => {
    const data = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id, {
      title: ` ${'t'.repeat(500)} `, body: 'b'.repeat(50_000),
    });
    assert.equal(data.title.length, 500);
    assert.equal(data.messages[0].body.length, 50_000);
  });

  const invalid: [string, (productId: string) => Record<string, unknown>, string][] = [
    ['a missing product_id', () => ({ title: 'x' }), 'product_id'],
    ['a malformed product_id', () => ({ product_id: 'abc', title: 'x' }), 'product_id'],
    ['a product_id naming no product', () => ({ product_id: UNKNOWN_ID, title: 'x' }), 'product_id'],
    ['a missing title', (p) => ({ product_id: p }), 'title'],
    ['a blank title', (p) => ({ product_id: p, title: '   ' }), 'title'],
    ['a title over 500 characters', (p) => ({ product_id: p, title: 't'.repeat(501) }), 'title'],
    ['an unknown type', (p) => ({ product_id: p, title: 'x', type: 'bug' }), 'type'],
    ['an unknown source', (p) => ({ product_id: p, title: 'x', source: 'fax' }), 'source'],
    ['an unknown priority', (p) => ({ product_id: p, title: 'x', priority: 'asap' }), 'priority'],
    ['a status (it always starts open)', (p) => ({ product_id: p, title: 'x', status: 'resolved' }), 'status'],
    ['an unknown field', (p) => ({ product_id: p, title: 'x', rating: 5 }), 'rating'],
    ['an empty body', (p) => ({ product_id: p, title: 'x', body: '' }), 'body'],
    ['a blank body', (p) => ({ product_id: p, title: 'x', body: ' \n\t ' }), 'body'],
    ['a body over 50,000 characters', (p) => ({ product_id: p, title: 'x', body: 'b'.repeat(50_001) }), 'body'],
    ['a body that is not a string', (p) => ({ product_id: p, title: 'x', body: 42 }), 'body'],
    ['an invalid contact email', (p) => ({ product_id: p, title: 'x', contact: { email: 'not-an-email' } }), 'contact.email'],
    ['a blank contact name', (p) => ({ product_id: p, title: 'x', contact: { name: '  ' } }), 'contact.name'],
    ['an unknown contact field', (p) => ({ product_id: p, title: 'x', contact: { phone: '123' } }), 'contact.phone'],
  ];
  for (const [what, body, field] of invalid) {
    it(`rejects ${what}`, async () => {
      const productId = (await createProduct(ctx().a.api)).id;
      assertInvalid(await ctx().a.api.post(BASE, body(productId)), field);
    });
  }

  it('rejects a product of another workspace (400, not 404)', async () => {
    const productOfA = (await createProduct(ctx().a.api)).id;
    assertInvalid(await ctx().b.api.post(BASE, { product_id: productOfA, title: 'x' }), 'product_id');
  });

  it('writes nothing when the import is rejected', async () => {
    const productId = (await createProduct(ctx().a.api)).id;
    await ctx().a.api.post(BASE, { product_id: productId, title: 'x', contact: { email: 'x@example.com' }, body: '  ' });
    const list = await ctx().a.api.get(`${BASE}?product_id=${productId}`);
    assert.equal(list.body.pagination.total, 0);
  });

  it('forbids read-only keys', async () => {
    const res = await ctx().client(ctx().a.readOnlyKey).post(BASE, { product_id: (await createProduct(ctx().a.api)).id, title: 'x' });
    assert.equal(res.status, 403);
    assert.equal(res.body.error_code, 'forbidden');
  });
});

describeEachDialect('GET /api/v1/conversations', (ctx) => {
  let productId: string;
  let otherProductId: string;
  /** Created oldest first: [0] ticket/open/normal … see `specs`. */
  const created: any[] = [];
  const specs = [
    { type: 'ticket', priority: 'normal', status: 'open' },
    { type: 'idea', priority: 'high', status: 'resolved' },
    { type: 'ticket', priority: 'high', status: 'in_progress' },
    { type: 'feedback', priority: 'low', status: 'dismissed' },
    { type: 'idea', priority: 'urgent', status: 'open' },
  ];
  const ids = (res: { body: any }) => res.body.data.map((c: { id: string }) => c.id);
  const newestFirst = (indexes: number[]) => indexes.map((i) => created[i].id).reverse();
  const list = (query: string) => ctx().a.api.get(`${BASE}?product_id=${productId}&${query}`);

  it('lists newest first, each with its source and contact', async () => {
    productId = (await createProduct(ctx().a.api)).id;
    otherProductId = (await createProduct(ctx().a.api)).id;
    for (const [index, { type, priority, status }] of specs.entries()) {
      const data = await importConversation(ctx().a.api, productId, {
        type, priority, source: index === 0 ? 'form' : 'chat', contact: { name: `Contact ${index}` },
      });
      if (status !== 'open') await ctx().a.api.patch(`${BASE}/${data.id}`, { status });
      created.push(data);
    }
    await importConversation(ctx().a.api, otherProductId);

    const res = await list('');
    assert.equal(res.status, 200);
    assert.deepEqual(ids(res), newestFirst([0, 1, 2, 3, 4]));
    assert.deepEqual(res.body.pagination, { total: 5, limit: 50, offset: 0 });
    const oldest = res.body.data[4];
    assert.equal(oldest.source, 'form');
    assert.deepEqual(oldest.contact, { id: created[0].contact_id, name: 'Contact 0', email: null, verified: false });
    assert.equal('messages' in oldest, false);
  });

  it('breaks created_at ties by id, descending', async () => {
    const all = await ctx().a.api.get(`${BASE}?limit=200`);
    const keys = all.body.data.map((c: { created_at: string; id: string }) => `${c.created_at} ${c.id}`);
    assert.deepEqual(keys, [...keys].sort().reverse());
  });

  it('filters by product_id', async () => {
    const res = await ctx().a.api.get(`${BASE}?product_id=${otherProductId}`);
    assert.equal(res.body.pagination.total, 1);
    assert.ok(res.body.data.every((c: { product_id: string }) => c.product_id === otherProductId));
  });

  it('filters by type', async () => assert.deepEqual(ids(await list('type=idea')), newestFirst([1, 4])));
  it('filters by status', async () => assert.deepEqual(ids(await list('status=open')), newestFirst([0, 4])));
  it('filters by priority', async () => assert.deepEqual(ids(await list('priority=high')), newestFirst([1, 2])));

  it('takes several comma-separated values, trimmed, ignoring empty items', async () => {
    assert.deepEqual(ids(await list('type=%20ticket%20,,feedback,')), newestFirst([0, 2, 3]));
    assert.deepEqual(ids(await list('status=resolved,dismissed')), newestFirst([1, 3]));
    assert.deepEqual(ids(await list('priority=low,urgent')), newestFirst([3, 4]));
    assert.deepEqual(ids(await list('status=,')), newestFirst([0, 1, 2, 3, 4]));
  });

  it('combines filters with AND', async () => {
    assert.deepEqual(ids(await list('type=ticket,idea&priority=high')), newestFirst([1, 2]));
    assert.deepEqual(ids(await list('type=idea&status=open&priority=urgent,normal')), newestFirst([4]));
    assert.deepEqual(ids(await list('type=feedback&status=open')), []);
  });

  it('counts every match in pagination.total, ignoring limit and offset', async () => {
    const res = await list('type=ticket,idea&limit=2&offset=1');
    assert.deepEqual(res.body.pagination, { total: 4, limit: 2, offset: 1 });
    assert.deepEqual(ids(res), newestFirst([0, 1, 2, 4]).slice(1, 3));
    const beyond = await list('status=open&offset=10');
    assert.deepEqual(beyond.body, { data: [], pagination: { total: 2, limit: 50, offset: 10 } });
  });

  it('[ext] lists only the conversations named by id, upper case and repeats allowed, other filters still applying', async () => {
    const [first, , third, , fifth] = created;
    assert.deepEqual(ids(await list(`id=${first.id},${fifth.id.toUpperCase()},,${first.id}`)), [fifth.id, first.id]);
    assert.deepEqual(ids(await list(`id=${first.id},${third.id}&status=open`)), [first.id]);
    assert.deepEqual((await list(`id=${UNKNOWN_ID}`)).body.pagination.total, 0);
  });

  it('[ext] takes at most 200 ids', async () => {
    const many = (n: number) => Array.from({ length: n }, () => created[0].id).join(',');
    assert.deepEqual(ids(await list(`id=${many(200)}`)), [created[0].id]);
    assertInvalid(await list(`id=${many(201)}`), 'id', 'at most 200');
  });

  it('gives an empty list for a well-formed product_id that names nothing', async () => {
    const res = await ctx().a.api.get(`${BASE}?product_id=${UNKNOWN_ID}`);
    assert.deepEqual(res.body, { data: [], pagination: { total: 0, limit: 50, offset: 0 } });
  });

  for (const [query, field, bad] of [
    ['type=ticket,bug', 'type', 'bug'], ['status=open,closed', 'status', 'closed'], ['priority=Normal', 'priority', 'Normal'],
    ['product_id=abc', 'product_id', 'abc'], [`id=${UNKNOWN_ID},abc`, 'id', 'abc'], ['limit=0', 'limit', ''], ['limit=201', 'limit', ''], ['offset=-1', 'offset', ''],
  ]) {
    it(`rejects ${query}`, async () => {
      assertInvalid(await ctx().a.api.get(`${BASE}?${query}`), field, bad || undefined);
    });
  }

  it('never lists another workspace\'s conversations, filtered or not', async () => {
    const inB = await importConversation(ctx().b.api, (await createProduct(ctx().b.api)).id);
    const fromA = await ctx().a.api.get(`${BASE}?limit=200`);
    assert.ok(!ids(fromA).includes(inB.id));
    const fromB = await ctx().b.api.get(`${BASE}?limit=200`);
    assert.deepEqual(ids(fromB), [inB.id]);
    const byProduct = await ctx().b.api.get(`${BASE}?product_id=${productId}`);
    assert.equal(byProduct.body.pagination.total, 0);
    const byId = await ctx().b.api.get(`${BASE}?id=${created[0].id},${inB.id}`);
    assert.deepEqual(ids(byId), [inB.id]);
  });

  it('works with a read-only key', async () => {
    const res = await ctx().client(ctx().a.readOnlyKey).get(`${BASE}?product_id=${productId}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.pagination.total, 5);
  });
});

describeEachDialect('GET /api/v1/conversations/{id}', (ctx) => {
  it('returns the conversation with its messages, oldest first', async () => {
    const data = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id, { body: 'first' });
    await ctx().a.api.post(`${BASE}/${data.id}/messages`, { body: 'second' });
    await ctx().a.api.post(`${BASE}/${data.id}/messages`, { body: 'third' });
    const res = await ctx().a.api.get(`${BASE}/${data.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.messages.map((m: { body: string }) => m.body), ['first', 'second', 'third']);
    assert.deepEqual(res.body.data.messages.map((m: { sender_type: string }) => m.sender_type), ['contact', 'agent', 'agent']);
  });

  it('finds a conversation by its id in upper case', async () => {
    const data = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id);
    const res = await ctx().a.api.get(`${BASE}/${data.id.toUpperCase()}`);
    assert.equal(res.body.data.id, data.id);
  });

  it('gives 404 for a malformed id and for an unknown one', async () => {
    assertNotFound(await ctx().a.api.get(`${BASE}/not-a-uuid`));
    assertNotFound(await ctx().a.api.get(`${BASE}/${UNKNOWN_ID}`));
  });

  it('gives 404 for another workspace\'s conversation', async () => {
    const data = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id);
    assertNotFound(await ctx().b.api.get(`${BASE}/${data.id}`));
  });
});

describeEachDialect('PATCH /api/v1/conversations/{id}', (ctx) => {
  const fresh = async () => importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id);

  it('follows the flow open → in_progress → resolved, changing updated_at each time', async () => {
    const data = await fresh();
    let previous = data.updated_at;
    for (const status of ['in_progress', 'resolved']) {
      await tick();
      const res = await ctx().a.api.patch(`${BASE}/${data.id}`, { status });
      assert.equal(res.status, 200);
      assert.equal(res.body.data.status, status);
      assert.ok(res.body.data.updated_at > previous);
      assert.equal('messages' in res.body.data, false);
      previous = res.body.data.updated_at;
    }
    assert.equal((await ctx().a.api.get(`${BASE}/${data.id}`)).body.data.updated_at, previous);
  });

  it('allows any status from any status, and sets priority', async () => {
    const data = await fresh();
    for (const status of ['dismissed', 'open', 'resolved', 'in_progress', 'open']) {
      const res = await ctx().a.api.patch(`${BASE}/${data.id}`, { status });
      assert.equal(res.body.data.status, status);
    }
    const res = await ctx().a.api.patch(`${BASE}/${data.id}`, { status: 'dismissed', priority: 'urgent' });
    assert.deepEqual([res.body.data.status, res.body.data.priority], ['dismissed', 'urgent']);
    const stored = (await ctx().a.api.get(`${BASE}/${data.id}`)).body.data;
    assert.deepEqual([stored.status, stored.priority], ['dismissed', 'urgent']);
  });

  it('leaves updated_at alone when nothing changes', async () => {
    const data = await fresh();
    await tick();
    for (const body of [{}, { status: 'open' }, { priority: 'normal' }, { status: 'open', priority: 'normal' }]) {
      const res = await ctx().a.api.patch(`${BASE}/${data.id}`, body);
      assert.equal(res.status, 200);
      assert.equal(res.body.data.updated_at, data.updated_at);
    }
  });

  for (const [what, body, field] of [
    ['an unknown status', { status: 'closed' }, 'status'],
    ['an unknown priority', { priority: 'asap' }, 'priority'],
    ['a null status', { status: null }, 'status'],
    ['an unknown field', { title: 'New title' }, 'title'],
  ] as const) {
    it(`rejects ${what}`, async () => {
      const data = await fresh();
      const res = await ctx().a.api.patch(`${BASE}/${data.id}`, body);
      assertInvalid(res, field);
      if (field === 'title') assert.equal(res.body.fields.title, 'unknown field');
    });
  }

  it('gives 404 for a malformed or unknown id, before validating the body', async () => {
    assertNotFound(await ctx().a.api.patch(`${BASE}/nope`, { status: 'open' }));
    assertNotFound(await ctx().a.api.patch(`${BASE}/${UNKNOWN_ID}`, { status: 'open' }));
    assertNotFound(await ctx().a.api.patch(`${BASE}/${UNKNOWN_ID}`, { status: 'closed', extra: 1 }));
  });

  it('cannot change another workspace\'s conversation', async () => {
    const data = await fresh();
    assertNotFound(await ctx().b.api.patch(`${BASE}/${data.id}`, { status: 'resolved' }));
    assert.equal((await ctx().a.api.get(`${BASE}/${data.id}`)).body.data.status, 'open');
  });

  it('forbids read-only keys, even for a missing conversation', async () => {
    const data = await fresh();
    const readOnly = ctx().client(ctx().a.readOnlyKey);
    for (const id of [data.id, UNKNOWN_ID]) {
      const res = await readOnly.patch(`${BASE}/${id}`, { status: 'resolved' });
      assert.equal(res.status, 403);
      assert.equal(res.body.error_code, 'forbidden');
    }
  });
});

describeEachDialect('POST /api/v1/conversations/{id}/messages', (ctx) => {
  const fresh = async () => importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id);

  it('adds an agent message from the key\'s member, stored as sent, and moves updated_at', async () => {
    const data = await fresh();
    await tick();
    const res = await ctx().a.api.post(`${BASE}/${data.id}/messages`, { body: '  Looking into it.\n' });
    assert.equal(res.status, 201);
    const { id, created_at, ...rest } = res.body.data;
    assert.deepEqual(rest, {
      sender_type: 'agent', sender_id: ctx().a.owner.id, sender_name: 'Alpha Owner', body: '  Looking into it.\n', internal: false, full_body: null, delivery: null, attachments: [],
    });
    const detail = (await ctx().a.api.get(`${BASE}/${data.id}`)).body.data;
    assert.deepEqual(detail.messages, [res.body.data]);
    assert.equal(detail.updated_at, created_at);
    assert.ok(detail.updated_at > data.updated_at);
  });

  it('sends as the API key, with no name, when the key has no member', async () => {
    const data = await fresh();
    const memberless = ctx().client(ctx().a.memberlessKey);
    const res = await memberless.post(`${BASE}/${data.id}/messages`, { body: 'Automated reply' });
    assert.equal(res.status, 201);
    assert.equal(res.body.data.sender_id, await apiKeyIdOf(memberless));
    assert.equal(res.body.data.sender_name, null);
  });

  it('accepts a 50,000-character body', async () => {
    const res = await ctx().a.api.post(`${BASE}/${(await fresh()).id}/messages`, { body: 'x'.repeat(50_000) });
    assert.equal(res.status, 201);
  });

  for (const [what, body, field] of [
    ['a missing body', {}, 'body'],
    ['an empty body', { body: '' }, 'body'],
    ['a blank body', { body: ' \n ' }, 'body'],
    ['a body over 50,000 characters', { body: 'x'.repeat(50_001) }, 'body'],
    ['a null body', { body: null }, 'body'],
    ['an unknown field', { body: 'hi', sender_type: 'system' }, 'sender_type'],
  ] as const) {
    it(`rejects ${what}`, async () => {
      const data = await fresh();
      assertInvalid(await ctx().a.api.post(`${BASE}/${data.id}/messages`, body), field);
      assert.deepEqual((await ctx().a.api.get(`${BASE}/${data.id}`)).body.data.messages, []);
    });
  }

  it('gives 404 for a malformed or unknown id, before validating the body', async () => {
    assertNotFound(await ctx().a.api.post(`${BASE}/nope/messages`, { body: 'hi' }));
    assertNotFound(await ctx().a.api.post(`${BASE}/${UNKNOWN_ID}/messages`, { body: 'hi' }));
    assertNotFound(await ctx().a.api.post(`${BASE}/${UNKNOWN_ID}/messages`, { body: '  ' }));
    assertNotFound(await ctx().a.api.post(`${BASE}/${UNKNOWN_ID}/messages`, {}));
  });

  it('cannot post to another workspace\'s conversation', async () => {
    const data = await fresh();
    assertNotFound(await ctx().b.api.post(`${BASE}/${data.id}/messages`, { body: 'hi' }));
    assert.deepEqual((await ctx().a.api.get(`${BASE}/${data.id}`)).body.data.messages, []);
  });

  it('forbids read-only keys, even for a missing conversation', async () => {
    const data = await fresh();
    for (const id of [data.id, UNKNOWN_ID]) {
      const res = await ctx().client(ctx().a.readOnlyKey).post(`${BASE}/${id}/messages`, { body: 'hi' });
      assert.equal(res.status, 403);
    }
  });
});

describeEachDialect('deprecated alias /api/v1/items', (ctx) => {
  const ALIAS = '/api/v1/items';

  function assertDeprecated(res: { headers: Record<string, unknown> }, successor: string) {
    assert.equal(res.headers.deprecation, 'true');
    assert.equal(res.headers.link, `<${successor}>; rel="successor-version"`);
  }

  it('imports, reads, lists, updates and posts messages exactly like /conversations, with deprecation headers', async () => {
    const productId = (await createProduct(ctx().a.api)).id;
    const created = await ctx().a.api.post(ALIAS, { product_id: productId, title: 'Via alias', body: 'hello' });
    assert.equal(created.status, 201);
    assertDeprecated(created, BASE);
    const { id } = created.body.data;

    const viaAlias = await ctx().a.api.get(`${ALIAS}/${id}`);
    assertDeprecated(viaAlias, `${BASE}/${id}`);
    assert.deepEqual(viaAlias.body, (await ctx().a.api.get(`${BASE}/${id}`)).body);
    assert.deepEqual(viaAlias.body.data, created.body.data);

    const query = `?product_id=${productId}&status=open`;
    const listed = await ctx().a.api.get(`${ALIAS}${query}`);
    assertDeprecated(listed, BASE);
    assert.deepEqual(listed.body, (await ctx().a.api.get(`${BASE}${query}`)).body);

    const patched = await ctx().a.api.patch(`${ALIAS}/${id}`, { status: 'resolved' });
    assertDeprecated(patched, `${BASE}/${id}`);
    assert.equal(patched.body.data.status, 'resolved');

    const message = await ctx().a.api.post(`${ALIAS}/${id}/messages`, { body: 'reply' });
    assert.equal(message.status, 201);
    assertDeprecated(message, `${BASE}/${id}/messages`);
    assert.equal(message.body.data.sender_id, ctx().a.owner.id);
  });

  it('answers errors like /conversations, with deprecation headers', async () => {
    const missing = await ctx().a.api.get(`${ALIAS}/${UNKNOWN_ID}`);
    assertNotFound(missing);
    assertDeprecated(missing, `${BASE}/${UNKNOWN_ID}`);
    assertInvalid(await ctx().a.api.get(`${ALIAS}?type=bug`), 'type', 'bug');
    assertInvalid(await ctx().a.api.post(ALIAS, { title: 'x' }), 'product_id');
    const readOnly = await ctx().client(ctx().a.readOnlyKey).post(ALIAS, { title: 'x' });
    assert.equal(readOnly.status, 403);
  });

  it('puts no deprecation headers on /conversations itself', async () => {
    const res = await ctx().a.api.get(BASE);
    assert.equal(res.headers.deprecation, undefined);
    assert.equal(res.headers.link, undefined);
  });

  it('documents every route, and marks the alias routes deprecated in openapi.json', async () => {
    const { paths, components } = (await ctx().a.api.get('/api/v1/openapi.json')).body;
    const named = (schema: { $ref: string }) => components.schemas[schema.$ref.split('/').pop()!];
    const routes = [['get', ''], ['post', ''], ['get', '/{id}'], ['patch', '/{id}'], ['post', '/{id}/messages']];
    for (const [method, suffix] of routes) {
      const operation = paths[`${BASE}${suffix}`][method];
      assert.deepEqual(operation.tags, ['Conversations']);
      assert.ok(operation.operationId && operation.summary && operation.description, `${method} ${suffix}`);
      assert.notEqual(operation.deprecated, true);
      for (const status of ['200', '201'].filter((s) => operation.responses[s])) {
        const data = operation.responses[status].content['application/json'].schema.properties.data;
        assert.ok(named(data.items ?? data).examples, `${method} ${suffix}`);
      }
      const alias = paths[`${ALIAS}${suffix}`][method];
      assert.equal(alias.deprecated, true, `${method} ${ALIAS}${suffix}`);
      assert.equal(alias.operationId, `${operation.operationId}ViaDeprecatedAlias`);
    }
  });
});
