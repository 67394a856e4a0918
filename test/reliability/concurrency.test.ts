// Concurrency across processes: four real servers on one PostgreSQL database. Concurrent creates
// number shortcodes without duplicates or gaps, concurrent PATCHes of one issue (conversation,
// product, release) end in one of the submitted states with the updated_at of the write that won,
// replies and notes racing PATCHes of one conversation leave it with the latest message and an
// updated_at no message is newer than, and concurrent releases naming the same issues keep their
// links intact.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { createIssue, createProduct, createRelease, importConversation } from '../helpers/factories.js';
import type { Client } from '../helpers/harness.js';
import { httpClient } from '../helpers/http-client.js';
import { integrityProblems } from '../helpers/integrity.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';

const SERVERS = 4;
const CREATES_PER_SERVER = 50;
const PATCHES_PER_SERVER = 10;
const STATUSES = ['pending', 'in_progress', 'icebox', 'done', 'dismissed', 'released'];
const CONVERSATION_STATUSES = ['open', 'in_progress', 'resolved', 'dismissed'];
const PRIORITIES = ['normal', 'low', 'high', 'urgent'];
const PATCHES = SERVERS * PATCHES_PER_SERVER;

/**
 * Sends the `submitted` states to `path` at once, spread over the servers. Each state repeats some
 * of the current values, so a PATCH that compared against a stale read would write only part of
 * its state and the result would mix two requests. It must be the state, and the updated_at, of
 * the last write to commit.
 */
async function racePatches(apis: Client[], path: string, submitted: Record<string, unknown>[]): Promise<void> {
  const fields = Object.keys(submitted[0]);
  const state = (record: any) => JSON.stringify(fields.map((field) => record[field]));
  const patched = await Promise.all(submitted.map((body, i) => apis[i % apis.length].patch(path, body)));
  assert.ok(patched.every((res) => res.status === 200), `every PATCH of ${path} succeeds`);
  const final = (await apis[0].get(path)).body.data;
  assert.ok(submitted.some((s) => state(s) === state(final)), `${path} ends as ${state(final)}, which is one of the submitted states`);
  const lastCommitted = patched.map((res) => res.body.data.updated_at).sort().at(-1);
  assert.equal(final.updated_at, lastCommitted, `${path}: updated_at is that of the last write to commit`);
  assert.ok(
    patched.some((res) => res.body.data.updated_at === lastCommitted && state(res.body.data) === state(final)),
    `${path}: the state is the one that write answered`,
  );
}

/**
 * Replies, notes and PATCHes of one conversation at once, spread over the servers. Each write
 * stamps its time under the conversation's lock, so whatever the order they commit in, the
 * conversation's updated_at is the newest of them all and its last message is the newest message.
 */
async function raceMessages(apis: Client[], conversationId: string): Promise<void> {
  const path = `/api/v1/conversations/${conversationId}`;
  const answers = await Promise.all(Array.from({ length: PATCHES }, (_, i) => {
    const api = apis[i % apis.length];
    if (i % 3 === 0) return api.patch(path, { status: CONVERSATION_STATUSES[(i / 3) % CONVERSATION_STATUSES.length] });
    return api.post(`${path}/${i % 3 === 1 ? 'messages' : 'notes'}`, { body: `Race message ${i}` });
  }));
  assert.ok(answers.every((res) => res.status === 200 || res.status === 201), 'every write succeeds');
  const final = (await apis[0].get(path)).body.data;
  const newest = [...final.messages].sort((x: any, y: any) => x.created_at.localeCompare(y.created_at)).at(-1);
  assert.deepEqual([final.last_message.created_at, final.last_message.excerpt], [newest.created_at, newest.body], `${path}: the last message is the newest`);
  // A PATCH answers the conversation (its updated_at), a reply or a note the message (its created_at).
  const stamps = answers.map((res) => res.body.data.updated_at ?? res.body.data.created_at);
  assert.equal(final.updated_at, stamps.sort().at(-1), `${path}: updated_at is the newest write's`);
}

/** The one API key printed by whichever of the servers bootstrapped the empty database. */
async function theBootstrapKey(servers: RunningServer[]): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!servers.some((s) => s.bootstrapKey()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const keys = servers.map((s) => s.bootstrapKey()).filter((key) => key !== null);
  assert.equal(keys.length, 1, 'exactly one of the servers starting together bootstraps the database');
  return keys[0]!;
}

describe(`${SERVERS} server processes on one PostgreSQL database`, { skip: !DIALECTS.includes('postgres') && 'no PostgreSQL' }, () => {
  it('numbers, patches and releases consistently under concurrency', async (t) => {
    const databaseUrl = await freshDatabaseUrl('postgres');
    const servers = await Promise.all(Array.from({ length: SERVERS }, () => startServer({ databaseUrl })));
    t.after(() => servers.forEach((server) => server.kill('SIGKILL')));
    const key = await theBootstrapKey(servers);
    const apis = servers.map((server) => httpClient(server.baseUrl, key));
    const products = [await createProduct(apis[0], { name: 'Race One' }), await createProduct(apis[0], { name: 'Race Two' })];

    const issues = await Promise.all(apis.flatMap((api, s) =>
      Array.from({ length: CREATES_PER_SERVER }, (_, i) => createIssue(api, products[i % 2].id, { title: `Race ${s}-${i}` })),
    ));
    for (const product of products) {
      const numbers = issues.filter((issue) => issue.product_id === product.id).map((issue) => Number(issue.shortcode.split('-')[1])).sort((x, y) => x - y);
      assert.deepEqual(numbers, Array.from({ length: numbers.length }, (_, i) => i + 1), `${product.issue_prefix}: no duplicate or skipped shortcode`);
    }

    await racePatches(apis, `/api/v1/issues/${issues[0].id}`, Array.from({ length: PATCHES }, (_, i) => ({
      title: `State ${i % 3}`, status: STATUSES[i % STATUSES.length], priority: PRIORITIES[i % PRIORITIES.length],
    })));
    const conversation = await importConversation(apis[0], products[0].id, { title: 'Race chat' });
    await racePatches(apis, `/api/v1/conversations/${conversation.id}`, Array.from({ length: PATCHES }, (_, i) => ({
      status: CONVERSATION_STATUSES[i % CONVERSATION_STATUSES.length], priority: PRIORITIES[(i >> 2) % PRIORITIES.length],
    })));
    await raceMessages(apis, (await importConversation(apis[0], products[0].id, { title: 'Race replies' })).id);
    await racePatches(apis, `/api/v1/products/${products[1].id}`, Array.from({ length: PATCHES }, (_, i) => ({
      name: `Race Two ${i % 3}`, domain: `d${i % 4}.example.com`,
    })));
    const draft = await createRelease(apis[0], products[1].id, { title: 'Race draft', released_at: null });
    await racePatches(apis, `/api/v1/releases/${draft.id}`, Array.from({ length: PATCHES }, (_, i) => ({
      title: `Draft ${i % 3}`, version: `v${i % 4}`,
    })));

    const done = await Promise.all(Array.from({ length: 6 }, (_, i) =>
      createIssue(apis[i % SERVERS], products[0].id, { title: `Ship ${i}`, status: 'done' }),
    ));
    const named = Array.from({ length: 2 * SERVERS }, (_, r) => [0, 1, 2].map((k) => done[(r + k) % done.length].id));
    const releases = await Promise.all(named.map((ids, r) =>
      createRelease(apis[r % SERVERS], products[0].id, { title: `Race release ${r}`, issue_ids: ids }),
    ));
    for (const [r, release] of releases.entries()) {
      const detail = (await apis[0].get(`/api/v1/releases/${release.id}`)).body.data;
      assert.deepEqual(detail.issues.map((issue: any) => issue.id).sort(), [...named[r]].sort(), `release ${r} links exactly its issues`);
      assert.ok(detail.issues.every((issue: any) => issue.status === 'released'));
    }

    const database = createDatabase(databaseUrl);
    try {
      assert.deepEqual(await integrityProblems(database.db), []);
    } finally {
      await database.close();
    }
    t.diagnostic(
      `concurrency [postgres]: ${SERVERS} processes, ${issues.length} concurrent creates, ${PATCHES} concurrent PATCHes each of an issue, ` +
        'a conversation, a product and a release, replies and notes racing PATCHes of a conversation, ' +
        `${releases.length} concurrent releases over ${done.length} shared issues`,
    );
  });
});
