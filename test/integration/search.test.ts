import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { eventually } from '../helpers/events.js';
import { createIssue, createProduct, importConversation } from '../helpers/factories.js';
import { createWorkspaceFixture, describeEachDialect, openTestApp, type Client, type TestApp, type TestContext } from '../helpers/harness.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { manualClock } from '../helpers/manual-clock.js';

const BASE = '/api/v1/search';

let words = 0;
/** A word no other test uses: letters only, so that both databases keep it whole. */
const word = (stem = 'zq') =>
  `${stem}${(process.pid * 1000 + ++words).toString(26).replace(/[0-9]/g, (digit) => 'qrstuvwxyz'[Number(digit)]!)}`;

const search = async (api: Client, query: Record<string, string | number>) => {
  const res = await api.get(`${BASE}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`);
  assert.equal(res.status, 200, res.text);
  return res.body as { data: any[]; pagination: { total: number; limit: number; offset: number } };
};

/** The results as `type:id`, best first. */
const found = async (api: Client, query: Record<string, string | number>) =>
  (await search(api, query)).data.map((result) => `${result.type}:${result.id}`);

/** The highlighted parts of a result's snippet. */
const marked = (result: { snippet: string; highlights: { start: number; end: number }[] }) =>
  result.highlights.map(({ start, end }) => [...result.snippet].slice(start, end).join(''));

/** The bytes of SQLite's FTS5 index (its segments and their terms): what it still holds, deleted or not. */
async function sqliteIndexBytes(ctx: Pick<TestContext, 'database'>): Promise<Buffer> {
  const stored = await sql<{ bytes: Buffer | string }>`select block as bytes from search_index_data union all select term from search_index_idx`.execute(ctx.database.db);
  return Buffer.concat(stored.rows.map((row) => Buffer.from(row.bytes ?? '')));
}

function assertInvalid(res: { status: number; body: any }, field: string) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.error_code, 'validation_error');
  assert.ok(res.body.fields?.[field], `fields.${field} in ${JSON.stringify(res.body)}`);
}

describeEachDialect('GET /api/v1/search [ext]', (ctx, dialect) => {
  it('finds an issue by a word of its title or its description, with the record GET /issues lists', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const [inTitle, inDescription] = [word(), word()];
    const issue = await createIssue(api, product.id, { title: `Checkout ${inTitle} fails`, description: `Seen by ${inDescription} customers` });

    const body = await search(api, { q: inTitle });
    assert.deepEqual(body.pagination, { total: 1, limit: 50, offset: 0 });
    const [result] = body.data;
    const listed = (await api.get(`/api/v1/issues?product_id=${product.id}`)).body.data[0];
    assert.deepEqual({ ...result, snippet: undefined }, {
      type: 'issue', id: issue.id, title: issue.title, snippet: undefined, highlights: [{ start: 9, end: 9 + inTitle.length }], issue: listed,
    });
    assert.ok(result.snippet.startsWith(`Checkout ${inTitle} fails`), result.snippet);
    assert.deepEqual(await found(api, { q: inDescription }), [`issue:${issue.id}`]);
  });

  it('finds a conversation by its title and by any of its messages, agent replies included, with the record GET /conversations lists', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const [inTitle, fromContact, fromAgent] = [word(), word(), word()];
    const conversation = await importConversation(api, product.id, { title: `Refund ${inTitle}`, body: `My card ${fromContact} was charged twice` });
    assert.equal((await api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: `Internal check: ${fromAgent} refunded` })).status, 201);

    const listed = (await api.get(`/api/v1/conversations?id=${conversation.id}`)).body.data[0];
    for (const q of [inTitle, fromContact, fromAgent]) {
      const [result, ...others] = (await search(api, { q })).data;
      assert.deepEqual(others, [], q);
      assert.deepEqual({ ...result, snippet: undefined, highlights: undefined }, {
        type: 'conversation', id: conversation.id, title: conversation.title, snippet: undefined, highlights: undefined, conversation: listed,
      });
      assert.deepEqual(marked(result), [q]);
    }
    // One result per conversation, however many of its messages match.
    await api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: `Again ${fromContact}` });
    assert.deepEqual(await found(api, { q: fromContact }), [`conversation:${conversation.id}`]);
  });

  it('finds a contact by name and by email, as its profile shows it', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const [name, mailbox] = [word('ada'), word('box')];
    const conversation = await importConversation(api, product.id, { contact: { name: `Ada ${name}`, email: `${mailbox}@example.com` }, body: 'Hello' });
    for (const q of [name, mailbox, `${mailbox}@example.com`]) {
      const results = (await search(api, { q, types: 'contact' })).data;
      assert.equal(results.length, 1, q);
      const { contact, ...result } = results[0];
      assert.deepEqual({ ...result, snippet: undefined, highlights: undefined }, {
        type: 'contact', id: conversation.contact_id, title: `Ada ${name}`, snippet: undefined, highlights: undefined,
      });
      assert.deepEqual(contact, {
        id: conversation.contact_id, name: `Ada ${name}`, email: `${mailbox}@example.com`, verified: false,
        created_at: conversation.created_at, last_seen_at: conversation.created_at, conversations_count: 1,
      });
    }
  });

  it('ignores case and accents, both ways, and highlights the words as written', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const stem = word('bot');
    const accented = await createIssue(api, product.id, { title: `El ${stem}ón de pago no responde` });
    const plain = await createIssue(api, product.id, { title: `The ${stem.toUpperCase()}ON label` });
    for (const q of [`${stem}on`, `${stem.toUpperCase()}ÓN`, `${stem}Ön`]) {
      assert.deepEqual(new Set(await found(api, { q })), new Set([`issue:${accented.id}`, `issue:${plain.id}`]), q);
    }
    const results = (await search(api, { q: `${stem}on pago` })).data;
    assert.deepEqual(results.map((result) => result.id), [accented.id]);
    assert.deepEqual(marked(results[0]), [`${stem}ón`, 'pago']);
  });

  it('folds ß and ss, æ and ae, ø and o, ł and l alike both ways, prefixes too, and highlights the words as written', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const stem = word('wei');
    const sharp = await createIssue(api, product.id, { title: `Der ${stem}ß Knopf in Łódź`, description: 'Ærøskøbing office' });
    const plain = await createIssue(api, product.id, { title: `The ${stem}ss button` });
    for (const q of [`${stem}ss`, `${stem}ß`, `${stem.toUpperCase()}SS`, `${stem}s`]) {
      assert.deepEqual(new Set(await found(api, { q })), new Set([`issue:${sharp.id}`, `issue:${plain.id}`]), q);
    }
    for (const q of [`${stem}ss lodz`, `${stem}ß aeroskobing`, `${stem}ss ærøskøbing`]) assert.deepEqual(await found(api, { q }), [`issue:${sharp.id}`], q);
    const [result] = (await search(api, { q: `${stem}ss lodz` })).data;
    assert.deepEqual(marked(result), [`${stem}ß`, 'Łódź']);
  });

  it('matches the last word also as the start of a word, the others only whole', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const [first, second] = [word('check'), word('flow')];
    const issue = await createIssue(api, product.id, { title: `${first}out ${second}` });
    assert.deepEqual(await found(api, { q: first }), [`issue:${issue.id}`]);
    assert.deepEqual(await found(api, { q: `${second} ${first}` }), [`issue:${issue.id}`]);
    assert.deepEqual(await found(api, { q: `${first} ${second}` }), [], 'a word before the last is not a prefix');
    assert.deepEqual(await found(api, { q: `${first}out ${second.slice(0, -2)}` }), [`issue:${issue.id}`]);
    // Every word must match.
    assert.deepEqual(await found(api, { q: `${first}out ${word()}` }), []);
  });

  it('puts the issue an exact shortcode names first, whatever its case, then what the words find', async () => {
    const api = ctx().a.api;
    const prefix = word('').slice(-3).toUpperCase().replace(/^[^A-Z]/, 'Q');
    const product = await createProduct(api, { issue_prefix: prefix });
    const named = await createIssue(api, product.id, { title: 'Nothing in common' });
    const mentioning = await createIssue(api, product.id, { title: `Duplicate of ${named.shortcode}` });
    const body = await search(api, { q: named.shortcode.toLowerCase() });
    assert.deepEqual(body.data.map((result) => result.id), [named.id, mentioning.id]);
    assert.equal(body.pagination.total, 2);
    assert.equal(body.data[0].snippet, `${named.shortcode} Nothing in common`);
    assert.deepEqual(marked(body.data[0]), [named.shortcode]);
    // Paging counts the named issue as the first result.
    const second = await search(api, { q: named.shortcode, limit: 1, offset: 1 });
    assert.deepEqual(second.data.map((result) => result.id), [mentioning.id]);
    assert.deepEqual(second.pagination, { total: 2, limit: 1, offset: 1 });
    assert.deepEqual((await search(api, { q: named.shortcode, limit: 1 })).data.map((result) => result.id), [named.id]);
    // Not when issues are not searched, or the issue is of another product.
    assert.deepEqual(await found(api, { q: named.shortcode, types: 'conversation' }), []);
    const other = await createProduct(api);
    assert.deepEqual(await found(api, { q: named.shortcode, product_id: other.id }), []);
  });

  it('ranks a match in a title above one in a description, and a result matching more often above one matching once', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const term = word();
    const inDescription = await createIssue(api, product.id, { title: 'Slow page', description: `Mentions ${term} once in a long text about other things` });
    const inTitle = await createIssue(api, product.id, { title: `${term} broken`, description: 'Nothing else' });
    assert.deepEqual(await found(api, { q: term }), [`issue:${inTitle.id}`, `issue:${inDescription.id}`]);
  });

  it('breaks ties in score by type, then id', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const term = word();
    // The same text in the same place scores the same in both databases.
    const issues = [await createIssue(api, product.id, { title: `${term} alpha` }), await createIssue(api, product.id, { title: `${term} alpha` })];
    const conversations = [await importConversation(api, product.id, { title: `${term} alpha`, body: 'Hello' }), await importConversation(api, product.id, { title: `${term} alpha`, body: 'Hello' })];
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    assert.deepEqual(await found(api, { q: term }), [
      ...conversations.sort(byId).map((c) => `conversation:${c.id}`), ...issues.sort(byId).map((i) => `issue:${i.id}`),
    ]);
  });

  it('pages past a conversation that many of its messages put first', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const term = word();
    const conversation = await importConversation(api, product.id, { title: 'Chat', body: `${term} ${term} ${term}` });
    // More matching messages than the rows a page of one ranks before it groups them into results.
    for (let i = 0; i < 24; i++) assert.equal((await api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: `${term} ${term} ${term}` })).status, 201);
    const issue = await createIssue(api, product.id, { title: 'Slow page', description: `Mentions ${term} once in a long text about other things entirely` });
    const all = await found(api, { q: term });
    assert.deepEqual(new Set(all), new Set([`conversation:${conversation.id}`, `issue:${issue.id}`]));
    const second = await search(api, { q: term, limit: 1, offset: 1 });
    assert.deepEqual(second.data.map((result) => `${result.type}:${result.id}`), [all[1]]);
    assert.deepEqual(second.pagination, { total: 2, limit: 1, offset: 1 });
  });

  it('keeps the index in step with every write: an edited title, a replaced message body, deleted rows', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const [before, after, secret, gone] = [word(), word(), word(), word()];
    const issue = await createIssue(api, product.id, { title: `Export ${before}` });
    assert.equal((await api.patch(`/api/v1/issues/${issue.id}`, { title: `Export ${after}` })).status, 200);
    assert.deepEqual(await found(api, { q: before }), []);
    assert.deepEqual(await found(api, { q: after }), [`issue:${issue.id}`]);

    // Writes outside the services (an erasure's bulk update, a cascade) reach the index alike.
    const conversation = await importConversation(api, product.id, { body: `My password is ${secret}` });
    const doomed = await createIssue(api, product.id, { title: `Obsolete ${gone}` });
    const db = ctx().database.db;
    await db.updateTable('messages').set({ body: '[erased]' }).where('conversation_id', '=', conversation.id).execute();
    await db.deleteFrom('issues').where('id', '=', doomed.id).execute();
    assert.deepEqual(await found(api, { q: secret }), []);
    assert.deepEqual(await found(api, { q: gone }), []);
    assert.deepEqual(await found(api, { q: 'erased', product_id: product.id }), [`conversation:${conversation.id}`]);

    if (dialect === 'sqlite') {
      // The words are gone from the index's own storage too, not only hidden behind a delete marker.
      const index = await sqliteIndexBytes(ctx());
      for (const removed of [before, secret, gone]) assert.equal(index.includes(removed), false, `${removed} is gone from the FTS5 index`);
      assert.equal(index.includes(after), true, 'the check can see a word');
    }
  });

  it('answers only the workspace\'s records, filtered by product_id and types', async () => {
    const { a, b } = ctx();
    const term = word();
    const [productA, otherA, productB] = [await createProduct(a.api), await createProduct(a.api), await createProduct(b.api)];
    const issue = await createIssue(a.api, productA.id, { title: `Crash ${term}` });
    const conversation = await importConversation(a.api, productA.id, { title: `About ${term}`, contact: { name: `Contact ${term}` } });
    const elsewhere = await createIssue(a.api, otherA.id, { title: `Also ${term}` });
    const foreign = await createIssue(b.api, productB.id, { title: `Theirs ${term}` });

    assert.deepEqual(new Set(await found(a.api, { q: term })), new Set([
      `issue:${issue.id}`, `conversation:${conversation.id}`, `contact:${conversation.contact_id}`, `issue:${elsewhere.id}`,
    ]));
    assert.deepEqual(await found(b.api, { q: term }), [`issue:${foreign.id}`]);
    assert.deepEqual(new Set(await found(a.api, { q: term, product_id: productA.id })), new Set([
      `issue:${issue.id}`, `conversation:${conversation.id}`, `contact:${conversation.contact_id}`,
    ]));
    assert.deepEqual(await found(a.api, { q: term, product_id: otherA.id }), [`issue:${elsewhere.id}`]);
    assert.deepEqual(await found(a.api, { q: term, product_id: productB.id }), [], 'another workspace\'s product');
    assert.deepEqual(new Set(await found(a.api, { q: term, types: ' conversation, contact,' })), new Set([
      `conversation:${conversation.id}`, `contact:${conversation.contact_id}`,
    ]));
  });

  it('pages the results: total counts them all, offset and limit pick the page', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const term = word();
    for (let i = 0; i < 3; i++) await createIssue(api, product.id, { title: `${term} number ${i}` });
    const all = await found(api, { q: term });
    assert.equal(all.length, 3);
    const page = await search(api, { q: term, limit: 2, offset: 1 });
    assert.deepEqual(page.data.map((result) => `${result.type}:${result.id}`), all.slice(1));
    assert.deepEqual(page.pagination, { total: 3, limit: 2, offset: 1 });
    assert.deepEqual(await search(api, { q: term, offset: 10 }), { data: [], pagination: { total: 3, limit: 50, offset: 10 } });
  });

  it('may be used with a read-only key; a query without words finds nothing', async () => {
    const { a, client } = ctx();
    const product = await createProduct(a.api);
    const term = word();
    const issue = await createIssue(a.api, product.id, { title: term });
    assert.deepEqual(await found(client(a.readOnlyKey), { q: term }), [`issue:${issue.id}`]);
    assert.deepEqual(await search(a.api, { q: '!! -- ??' }), { data: [], pagination: { total: 0, limit: 50, offset: 0 } });
  });

  it('rejects a missing, empty, blank or overlong q, unknown types, a malformed product_id and a bad page, all in one answer', async () => {
    const api = ctx().a.api;
    assertInvalid(await api.get(BASE), 'q');
    assertInvalid(await api.get(`${BASE}?q=`), 'q');
    assertInvalid(await api.get(`${BASE}?q=%20%20`), 'q');
    assertInvalid(await api.get(`${BASE}?q=${'a'.repeat(201)}`), 'q');
    assertInvalid(await api.get(`${BASE}?q=x&types=issue,ticket`), 'types');
    assertInvalid(await api.get(`${BASE}?q=x&product_id=nope`), 'product_id');
    const res = await api.get(`${BASE}?q=x&limit=0&offset=-1`);
    assertInvalid(res, 'limit');
    assertInvalid(res, 'offset');
    assert.equal((await ctx().client(null).get(`${BASE}?q=x`)).status, 401);
  });
});

const FOLD_MS = 60_000;
const clock = manualClock();

/** How many of the conversation's messages are indexed on their own (not folded into its document). */
async function unfolded(ctx: Pick<TestContext, 'database' | 'dialect'>, conversationId: string): Promise<number> {
  const { rows } = ctx.dialect === 'sqlite'
    ? await sql<{ n: number }>`select count(*) as n from search_documents where result_id = ${conversationId} and kind = 'message'`.execute(ctx.database.db)
    : await sql<{ n: number }>`select count(*)::int as n from messages where conversation_id = ${conversationId} and not search_folded`.execute(ctx.database.db);
  return Number(rows[0]!.n);
}

describeEachDialect('search folding: a quiet conversation is one document [ext]', (ctx, dialect) => {
  const folded = (conversationId: string) => eventually(() => unfolded(ctx(), conversationId), (n) => n === 0, 'folded');
  const reply = async (conversationId: string, body: string) =>
    assert.equal((await ctx().a.api.post(`/api/v1/conversations/${conversationId}/messages`, { body })).status, 201);

  before(() => ctx().services.webhookDispatcher.start());

  it('indexes each new message on its own, and folds them into the conversation once it has been quiet LOOPDESK_SEARCH_FOLD_MS', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const [first, second, third] = [word(), word(), word()];
    const conversation = await importConversation(api, product.id, { title: 'Export', body: `The export ${first} fails` });
    await reply(conversation.id, `Try the ${second} button`);
    const one = [`conversation:${conversation.id}`];
    assert.deepEqual([await found(api, { q: first }), await found(api, { q: second })], [one, one]);
    // Each message is matched by itself until the fold: words of two messages do not find it together.
    assert.deepEqual(await found(api, { q: `${first} ${second}` }), []);
    assert.equal(await unfolded(ctx(), conversation.id), 2);

    clock.advance(FOLD_MS - 1_000);
    await reply(conversation.id, `It ${third} worked`);
    // Quiet for the fold's wait since the first messages, but not since the last: nothing is folded yet.
    clock.advance(1_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await unfolded(ctx(), conversation.id), 3);

    clock.advance(FOLD_MS);
    await folded(conversation.id);
    const body = await search(api, { q: `${first} ${third}` });
    assert.deepEqual(body.data.map((result) => `${result.type}:${result.id}`), one);
    assert.equal(body.pagination.total, 1);
    // The snippet shows the words where they are (SQLite cuts it from the whole document, PostgreSQL from the title and the best message).
    const highlighted = marked(body.data[0]).map((text) => text.toLowerCase());
    assert.ok(highlighted.length > 0 && highlighted.every((text) => text === first || text === third), body.data[0].snippet);
    for (const q of [first, second, third, `${second} ${third}`, 'export']) assert.deepEqual(await found(api, { q, product_id: product.id }), one, q);
  });

  it('finds a message written after the fold at once, on its own, until the next fold', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const [old, recent] = [word(), word()];
    const conversation = await importConversation(api, product.id, { title: 'Login', body: `Login ${old} loops` });
    clock.advance(FOLD_MS);
    await folded(conversation.id);
    await reply(conversation.id, `Cleared ${recent} cookies`);
    assert.deepEqual(await found(api, { q: recent }), [`conversation:${conversation.id}`]);
    assert.deepEqual(await search(api, { q: `${old} ${recent}` }), { data: [], pagination: { total: 0, limit: 50, offset: 0 } });
    // Matched by its document and by the new message: still one result, counted once.
    assert.deepEqual((await search(api, { q: 'login', product_id: product.id })).pagination.total, 1);
    clock.advance(FOLD_MS);
    await folded(conversation.id);
    assert.deepEqual(await found(api, { q: `${old} ${recent}` }), [`conversation:${conversation.id}`]);
  });

  it('folds ß and its kin in a folded conversation\'s words too, and takes them out with a changed title', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    const [street, fjord] = [word('stra'), word('fj')];
    const conversation = await importConversation(api, product.id, { title: `Die ${street}ße`, body: `Near the ${fjord}ø bridge` });
    clock.advance(FOLD_MS);
    await folded(conversation.id);
    const one = [`conversation:${conversation.id}`];
    assert.deepEqual([await found(api, { q: `${street}sse ${fjord}o` }), await found(api, { q: `${street}ße ${fjord}ø` })], [one, one]);
    // The index takes out the words it holds, folded: none of the old title's is left behind.
    await ctx().database.db.updateTable('conversations').set({ title: 'Renamed' }).where('id', '=', conversation.id).execute();
    assert.deepEqual([await found(api, { q: `${street}sse` }), await found(api, { q: `${street}ße` }), await found(api, { q: `${fjord}o renamed` })], [[], [], one]);
  });

  it('keeps a folded conversation in step with every write: its title, a replaced message body, an erasure', async () => {
    const api = ctx().a.api;
    const product = await createProduct(api);
    // Six random letters end each word: the index stores a word after the prefix it shares with the word before it.
    const tailed = () => `${word()}${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
    const [titled, kept, secret, renamed] = [tailed(), tailed(), tailed(), tailed()];
    const conversation = await importConversation(api, product.id, { title: `Refund ${titled}`, body: `My password is ${secret}` });
    await reply(conversation.id, `We ${kept} it`);
    clock.advance(FOLD_MS);
    await folded(conversation.id);
    const db = ctx().database.db;
    await db.updateTable('conversations').set({ title: `Refund ${renamed}` }).where('id', '=', conversation.id).execute();
    await db.updateTable('messages').set({ body: '[erased]' }).where('conversation_id', '=', conversation.id).where('sender_type', '=', 'contact').execute();
    assert.deepEqual([await found(api, { q: titled }), await found(api, { q: secret })], [[], []]);
    const one = [`conversation:${conversation.id}`];
    assert.deepEqual([await found(api, { q: renamed }), await found(api, { q: kept }), await found(api, { q: `${renamed} ${kept}` })], [one, one, one]);
    if (dialect === 'sqlite') {
      const index = await sqliteIndexBytes(ctx());
      for (const removed of [titled, secret]) assert.equal(index.includes(removed.slice(-6)), false, `${removed} is gone from the FTS5 index`);
      assert.equal(index.includes(kept.slice(-6)), true, 'the check can see a word');
    }
  });
}, { clock, searchFoldMs: FOLD_MS, webhooks: { pollIntervalMs: 20 } });

// The benchmark's seed folds every conversation at once (`foldAll`), where a server folds them one
// at a time: both must leave an index that answers alike.
for (const dialect of DIALECTS) {
  describe(`folding every conversation at once [${dialect}]`, () => {
    const apps: TestApp[] = [];
    after(() => Promise.all(apps.map((app) => app.close())));

    it('folds every message, and the index answers every query as after folding one conversation at a time', async () => {
      const [term, ...names] = [word(), word(), word(), word()];
      /** The same writes on a fresh app: three conversations of four messages, and an issue. */
      const written = async () => {
        const app = await openTestApp(await freshDatabaseUrl(dialect));
        apps.push(app);
        const { api } = await createWorkspaceFixture(app.services, app.client, 'Folds');
        const product = await createProduct(api);
        const conversations: string[] = [];
        for (const name of names) {
          const { id } = await importConversation(api, product.id, { title: `Thread ${name}`, body: `${term} opens ${name}` });
          for (let i = 0; i < 3; i++) assert.equal((await api.post(`/api/v1/conversations/${id}/messages`, { body: `${term} reply ${i} ${name}` })).status, 201);
          conversations.push(id);
        }
        await createIssue(api, product.id, { title: `${term} issue` });
        return { app, api, conversations };
      };
      const queries: Record<string, string | number>[] = [{ q: term }, { q: `${term} reply` }, { q: 'opens' }, { q: `${names[0]} reply` }, { q: term, limit: 2, offset: 1 }];
      /** Each answer's hits in order, a conversation by its place in the writes (ids and times differ between the apps). */
      const answers = async ({ api, conversations }: Awaited<ReturnType<typeof written>>) => Promise.all(queries.map(async (query) => {
        const { data, pagination } = await search(api, query);
        const results = data.map(({ type, id, snippet, highlights }) => ({ type, at: conversations.indexOf(id), snippet, highlights }));
        return { results, total: pagination.total };
      }));

      const oneByOne = await written();
      for (const id of oneByOne.conversations) {
        await oneByOne.app.database.db.transaction().execute((tx) => oneByOne.app.database.dialect.fullText.fold(tx, id));
      }
      const atOnce = await written();
      assert.deepEqual(await Promise.all(atOnce.conversations.map((id) => unfolded({ database: atOnce.app.database, dialect }, id))), [4, 4, 4]);
      await atOnce.app.database.db.transaction().execute((tx) => atOnce.app.database.dialect.fullText.foldAll(tx));
      assert.deepEqual(await Promise.all(atOnce.conversations.map((id) => unfolded({ database: atOnce.app.database, dialect }, id))), [0, 0, 0]);
      const expected = await answers(oneByOne);
      assert.equal(expected[1]!.total, 3, 'every conversation found by words of two of its messages: folded');
      assert.deepEqual(await answers(atOnce), expected);
    });
  });
}

// SQLite reads the matches of a workspace that is the whole index without joining them to their
// documents; every answer must be the one the joined reading gives once another workspace exists.
for (const dialect of DIALECTS) {
  describe(`search in an installation of one workspace, then two [${dialect}]`, () => {
    let app: TestApp;
    before(async () => {
      app = await openTestApp(await freshDatabaseUrl(dialect), { searchFoldMs: 0 });
    });
    after(() => app.close());

    it('answers every query alike: ranking, ties, a shortcode first, unfolded messages counted once, pages past the candidates', async () => {
      const { api } = await createWorkspaceFixture(app.services, app.client, 'Solo');
      const product = await createProduct(api);
      const term = word();
      const issues = [];
      for (let i = 0; i < 6; i++) issues.push(await createIssue(api, product.id, { title: `${term} export ${i}`, description: i % 2 ? `${term} again` : null }));
      const chat = await importConversation(api, product.id, { title: `Chat about ${term}`, body: `${term} ${term}` });
      // Messages not yet folded: more matching rows than a page of one ranks before grouping them.
      for (let i = 0; i < 12; i++) assert.equal((await api.post(`/api/v1/conversations/${chat.id}/messages`, { body: `${term} ${term} ${term}` })).status, 201);
      const quiet = await importConversation(api, product.id, { title: 'Quiet', body: `first ${term}` });
      await app.database.db.transaction().execute((tx) => app.database.dialect.fullText.fold(tx, quiet.id));
      const queries: Record<string, string | number>[] = [
        { q: term }, { q: term, limit: 1 }, { q: term, limit: 1, offset: 1 }, { q: term, limit: 2, offset: 5 }, { q: `${term} export` },
        { q: `${issues[2].shortcode}` }, { q: `${issues[2].shortcode.toLowerCase()}`, limit: 1, offset: 1 }, { q: `first ${term}` }, { q: 'nothing matches this' },
      ];
      const answers = async () => Promise.all(queries.map((query) => search(api, query)));
      const alone = await answers();
      assert.equal(alone[0].pagination.total, 8);
      // Another workspace's documents in the index, with the same words.
      const other = await createWorkspaceFixture(app.services, app.client, 'Other');
      await createIssue(other.api, (await createProduct(other.api)).id, { title: `${term} export elsewhere` });
      assert.deepEqual(await answers(), alone);
    });
  });
}
