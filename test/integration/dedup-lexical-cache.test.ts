// The lexical matcher's per-process cache over a shared database: the app is one process, and a
// second deduplicating-create service with its own lexical detector stands for another process
// (its own cache, the same database). Each must see what the other created, changed and closed,
// catch up with the issues written since its index's version when someone else moved it (reading
// every candidate only for a first index, or a new candidate older than its newest), and never
// keep an issue whose transaction rolled back.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { embeddingRepository } from '../../src/db/repositories/embedding.repository.js';
import { issueRepository, type IssueRepository } from '../../src/db/repositories/issue.repository.js';
import type { DuplicateDetector } from '../../src/dedup/detector.js';
import { createLexicalDetector } from '../../src/dedup/lexical.js';
import type { Actor } from '../../src/domain/accounts/actor.js';
import { createIssueDedupService } from '../../src/domain/issues/issue-dedup.service.js';
import { createIssueMatcher } from '../../src/domain/issues/issue-matcher.js';
import { systemClock } from '../../src/lib/clock.js';
import { createServices } from '../../src/services.js';
import { createIssue, createIssueMaybe, createProduct } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';

describeEachDialect('POST /api/v1/issues/maybe with a second process\'s cache (lexical matcher)', (ctx, dialect) => {
  /** Another process: its own lexical detector, counting how often it reads the candidates, and the issues written since a version. */
  function otherProcess(detector: DuplicateDetector = createLexicalDetector(), issues: Partial<IssueRepository> = {}) {
    const { database } = ctx();
    const store = embeddingRepository(database.db);
    const reads = { candidates: 0, changes: 0 };
    const services = createServices(database, { detector });
    const repository = { ...issueRepository(database.db), ...issues };
    const matcher = createIssueMatcher({
      dialect: database.dialect,
      detector,
      issues: repository,
      dedupStore: {
        productVersion: store.productVersion,
        openCandidates: (...args) => (reads.candidates++, store.openCandidates(...args)),
        changedSince: (...args) => (reads.changes++, store.changedSince(...args)),
      },
    });
    const issueDedup = createIssueDedupService({
      db: database.db, clock: systemClock, issues: repository, issueService: services.issues, issueWrites: services.issueWrites, matcher,
    });
    return { reads, detector, maybe: (actor: Actor, productId: string, title: string) => issueDedup.createMaybe(actor, { product_id: productId, title }) };
  }

  async function setUp(context: TestContext) {
    const actor = (await context.services.identity.authenticate(context.a.key))!;
    const productId: string = (await createProduct(context.a.api)).id;
    const viaApp = (title: string): Promise<{ data: { id: string }; matched_existing: boolean }> =>
      createIssueMaybe(context.a.api, productId, { title });
    return { actor, productId, api: context.a.api, viaApp };
  }

  it('sees what the other process created, changed and closed', async () => {
    const { actor, productId, api, viaApp } = await setUp(ctx());
    const other = otherProcess();
    const exported = await other.maybe(actor, productId, 'Export to CSV crashes');
    assert.equal(exported.matchedExisting, false);
    assert.equal((await viaApp('export to CSV crashes!')).data.id, exported.issue.id);

    const refund = await viaApp('Refund never arrives');
    assert.equal(refund.matched_existing, false);
    assert.equal((await other.maybe(actor, productId, 'Refund never arrives.')).issue.id, refund.data.id);

    await api.patch(`/api/v1/issues/${refund.data.id}`, { title: 'Dark mode resets after restart' });
    assert.equal((await other.maybe(actor, productId, 'Dark mode resets after restart')).issue.id, refund.data.id);
    await api.patch(`/api/v1/issues/${exported.issue.id}`, { status: 'done' });
    const again = await other.maybe(actor, productId, 'Export to CSV crashes');
    assert.equal(again.matchedExisting, false);
    assert.notEqual(again.issue.id, exported.issue.id);
  });

  it('reads the candidates only when another writer moved the product\'s version', async () => {
    const { actor, productId, api } = await setUp(ctx());
    const other = otherProcess();
    await other.maybe(actor, productId, 'Login fails on Safari');
    assert.equal(other.reads.candidates, 1, 'a cold cache reads them once');
    for (const title of ['Refund never arrives', 'Invoice shows the wrong currency', 'Login fails on Safari']) await other.maybe(actor, productId, title);
    assert.equal(other.reads.candidates, 1, 'its own creations and matches need no read');

    assert.equal(other.reads.changes, 0);

    const direct = await createIssue(api, productId, { title: 'Search ignores accents' });
    assert.equal((await other.maybe(actor, productId, 'Search ignores accents')).issue.id, direct.id);
    assert.deepEqual(other.reads, { candidates: 1, changes: 1 }, 'an issue created elsewhere: the issues written since, not every candidate');
  });

  it('catches up with edits, closes, reopens and releases made elsewhere, reading every candidate only for a reopened issue', async () => {
    const { actor, productId, api } = await setUp(ctx());
    const other = otherProcess();
    const titles = ['Login fails on Safari', 'Refund never arrives', 'Invoice shows the wrong currency', 'Export to CSV crashes'];
    const ids: string[] = [];
    for (const title of titles) ids.push((await other.maybe(actor, productId, title)).issue.id);
    assert.deepEqual(other.reads, { candidates: 1, changes: 0 });

    // An edit, a close and a release in one go, elsewhere: one catch-up sees all three.
    await api.patch(`/api/v1/issues/${ids[0]}`, { title: 'Dark mode resets after restart' });
    await api.patch(`/api/v1/issues/${ids[1]}`, { status: 'done' });
    await api.post('/api/v1/releases', { product_id: productId, title: 'Spring', issue_ids: [ids[2]] });
    assert.equal((await other.maybe(actor, productId, 'Dark mode resets after restart')).issue.id, ids[0]);
    assert.deepEqual(other.reads, { candidates: 1, changes: 1 });
    for (const gone of [titles[0], titles[1], titles[2]]) {
      const again = await other.maybe(actor, productId, gone);
      assert.equal(again.matchedExisting, false, `"${gone}" is no longer a candidate`);
      assert.ok(!ids.includes(again.issue.id));
    }
    assert.equal((await other.maybe(actor, productId, titles[3])).issue.id, ids[3], 'what did not change stays');
    assert.deepEqual(other.reads, { candidates: 1, changes: 1 }, 'its own creations need no catch-up');

    // Reopened, the done issue is older than the newest candidate: its place needs the whole list.
    await api.patch(`/api/v1/issues/${ids[1]}`, { status: 'pending', title: 'Refunds take weeks' });
    assert.equal((await other.maybe(actor, productId, 'Refunds take weeks')).issue.id, ids[1]);
    assert.deepEqual(other.reads, { candidates: 2, changes: 2 });
  });

  it('keeps nothing of a create whose transaction rolled back', async () => {
    const { actor, productId, api } = await setUp(ctx());
    const detector = createLexicalDetector();
    const working = otherProcess(detector);
    const failing = otherProcess(detector, { insertSource: async () => { throw new Error('disk full'); } });
    await working.maybe(actor, productId, 'Cart empties itself');
    await assert.rejects(failing.maybe(actor, productId, 'Push notifications arrive twice'), /disk full/);
    // Another writer now commits the version number the rolled-back transaction had taken.
    await createIssue(api, productId, { title: 'Unrelated problem' });
    const retried = await working.maybe(actor, productId, 'Push notifications arrive twice');
    assert.equal(retried.matchedExisting, false, 'the rolled-back issue is not a candidate');
    assert.equal((await working.maybe(actor, productId, 'Push notifications arrive twice')).issue.id, retried.issue.id);
  });

  // PostgreSQL only: SQLite runs one transaction at a time, so no writer can commit during one.
  if (dialect === 'postgres') it('does not take in its own issue when another writer committed during its transaction', async () => {
    const { actor, productId, api } = await setUp(ctx());
    const lexical = createLexicalDetector();
    let duringDecision: (() => Promise<unknown>) | null = null;
    const other = otherProcess({
      ...lexical,
      async decide(...args) {
        const decision = await lexical.decide(...args);
        await duringDecision?.();
        return decision;
      },
    });
    const exported = await other.maybe(actor, productId, 'Export to CSV crashes');
    duringDecision = () => api.patch(`/api/v1/issues/${exported.issue.id}`, { title: 'Webhooks retry forever' });
    assert.equal((await other.maybe(actor, productId, 'Refund never arrives')).matchedExisting, false);
    duringDecision = null;
    assert.equal((await other.maybe(actor, productId, 'Webhooks retry forever')).issue.id, exported.issue.id);
  });

  it('decides consistently when both processes race on one product', async () => {
    const { actor, productId, viaApp } = await setUp(ctx());
    const other = otherProcess();
    const viaOther = async (title: string) => {
      const result = await other.maybe(actor, productId, title);
      return { data: { id: result.issue.id }, matched_existing: result.matchedExisting };
    };
    const same = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? viaApp : viaOther)('App freezes when uploading a photo')));
    assert.equal(new Set(same.map((r) => r.data.id)).size, 1);
    assert.equal(same.filter((r) => !r.matched_existing).length, 1);

    const titles = Array.from({ length: 12 }, (_, i) => `Distinct problem number ${'abcdefghijkl'[i].repeat(4)} in the ${['editor', 'exporter', 'billing'][i % 3]}`);
    const created = await Promise.all(titles.map((title, i) => (i % 2 ? viaApp : viaOther)(title)));
    assert.ok(created.every((r) => !r.matched_existing));
    const matched = await Promise.all(titles.map((title, i) => (i % 2 ? viaOther : viaApp)(title)));
    assert.deepEqual(matched.map((r) => r.data.id), created.map((r) => r.data.id), 'each process finds every issue the other created');
  });
});
