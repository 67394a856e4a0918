// The `local` matcher for real and offline: a tiny model written to a temp dir, loaded by
// transformers.js through LOOPDESK_MODELS_DIR, vectors stored in the database and cached per
// product, a change costing only the rows it touched.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { embeddingRepository, type EmbeddingRepository } from '../../src/db/repositories/embedding.repository.js';
import { createDuplicateDetector, type DetectorDeps } from '../../src/dedup/create-detector.js';
import type { Candidate, CandidateChange, DuplicateDetector, WarmScope } from '../../src/dedup/detector.js';
import { createEmbeddingDetector, EMBED_BATCH, type Embedder } from '../../src/dedup/embedding-detector.js';
import { localEmbedder } from '../../src/dedup/local-embedder.js';
import { issueText, textHash } from '../../src/dedup/text.js';
import { createDatabase } from '../../src/db/database.js';
import { DIALECTS } from '../helpers/databases.js';
import { createDedupFixture, type DedupFixture } from '../helpers/dedup-fixtures.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

// `query` is what the e5 prefix `query: ` tokenizes to (with a `:` that has no vector here).
const VECTORS = {
  query: [0, 0, 0, 2],
  login: [2, 0, 0, 0],
  fails: [0, 2, 0, 0],
  refund: [0, 0, 2, 0],
};
const tiny = writeTinyModel('loopdesk-test/e5-tiny', VECTORS);
const env = { LOOPDESK_DEDUP_PROVIDER: 'local', LOOPDESK_EMBEDDING_MODEL: tiny.model, LOOPDESK_MODELS_DIR: tiny.modelsDir };

/** Mean of the token vectors (unknown words and `:` count as zero vectors), scaled to length 1. */
function expected(words: string[]): number[] {
  const sum = [0, 0, 0, 0];
  for (const word of words) (VECTORS[word as keyof typeof VECTORS] ?? [0, 0, 0, 0]).forEach((v, i) => (sum[i] += v));
  const norm = Math.hypot(...sum);
  return sum.map((v) => v / norm);
}

function assertClose(actual: ArrayLike<number>, wanted: number[]): void {
  assert.equal(actual.length, wanted.length);
  wanted.forEach((v, i) => assert.ok(Math.abs(actual[i] - v) < 1e-5, `[${i}] ${actual[i]} ≠ ${v}`));
}

const logs: string[] = [];
const logger = { info: (_: object, m: string) => logs.push(`info ${m}`), warn: (_: object, m: string) => logs.push(`warn ${m}`) };

/** Counts model calls and full reloads, to prove what decide() does not do; the model fails while `down()`. */
function counted(fixture: DedupFixture, down = () => false) {
  const calls = { embed: 0, forProduct: 0 };
  const inner = localEmbedder({ model: tiny.model, dtype: 'q8', modelsDir: tiny.modelsDir, modelsUrl: null, cacheDir: mkdtempSync(join(tmpdir(), 'cache-')) });
  const embedder: Embedder = {
    ...inner,
    embed: async (texts) => {
      if (down()) throw new Error('the model is down');
      calls.embed++;
      return inner.embed(texts);
    },
  };
  const repository = embeddingRepository(fixture.database.db);
  const store: EmbeddingRepository = { ...repository, forProduct: (...args) => (calls.forProduct++, repository.forProduct(...args)) };
  const detector = createEmbeddingDetector({ embedder, store, threshold: 0.9, logger });
  return { calls, detector };
}

/** The product's dedup version and candidates, read outside any transaction, as the issue matcher gives `warm`. */
function warmScope({ database, workspaceId, productId }: DedupFixture): WarmScope {
  const repository = embeddingRepository(database.db);
  return {
    workspaceId, productId,
    version: () => repository.productVersion(workspaceId, productId),
    candidates: () => repository.openCandidates(workspaceId, productId),
  };
}

for (const dialect of DIALECTS) {
  describe(`local matcher (${dialect})`, () => {
    let fixture: DedupFixture;
    let detector: DuplicateDetector;
    const decide = (d: DuplicateDetector, title: string, candidates: Candidate[]) =>
      fixture.database.db.transaction().execute(async (tx) =>
        d.decide(await d.prepare({ title, description: null }), { workspaceId: fixture.workspaceId, productId: fixture.productId, candidates }, tx));

    before(async () => {
      fixture = await createDedupFixture(dialect);
      const deps: DetectorDeps = { store: embeddingRepository(fixture.database.db), logger };
      detector = await createDuplicateDetector(loadConfig(env).dedup, deps);
    });
    after(async () => {
      await detector.close();
      await fixture.close();
    });

    it('is named after the model and loads it from LOOPDESK_MODELS_DIR', async () => {
      assert.equal(detector.name, 'local:loopdesk-test/e5-tiny');
      const prepared = await detector.prepare({ title: 'Login fails', description: null });
      assertClose((prepared as unknown as { vector: Float32Array }).vector, expected(['query', ':', 'login', 'fails']));
    });

    it('stores mean-pooled, normalized vectors with the model, dimension and text hash', async () => {
      const issue = await fixture.createIssue('Login', 'fails again');
      await detector.indexIssue(issue);
      const [stored] = await embeddingRepository(fixture.database.db).forIssues(fixture.workspaceId, [issue.id], tiny.model);
      assert.equal(stored.model, tiny.model);
      assert.equal(stored.textHash, textHash('Login\nfails again'));
      assertClose(stored.vector, expected(['query', ':', 'login', 'fails', 'again']));
    });

    it('matches above the threshold and reports the best score either way', async () => {
      const login = await fixture.createIssue('login fails');
      const refund = await fixture.createIssue('refund');
      for (const issue of [login, refund]) await detector.indexIssue(issue);
      const same = await decide(detector, 'LOGIN FAILS', [login, refund]);
      assert.equal(same.issueId, login.id);
      assert.ok(Math.abs(same.score! - 1) < 1e-5);
      const other = await decide(detector, 'login refund', [login, refund]);
      assert.equal(other.issueId, null);
      // The best candidate is `refund`: (q + refund)·(q + login + refund) / (√2 · √3).
      const wanted = 2 / Math.sqrt(6);
      assert.ok(Math.abs(other.score! - wanted) < 1e-5, `${other.score} ≠ ${wanted}`);
      assert.deepEqual(await decide(detector, 'login', []), { issueId: null, score: null });
    });

    it('decides from stored vectors without calling the model, and reads only a new issue\'s vector after a change', async () => {
      const { calls, detector: counting } = counted(fixture);
      after(() => counting.close());
      const login = await fixture.createIssue('login fails');
      await detector.indexIssue(login);
      const prepared = await counting.prepare({ title: 'login fails', description: null });
      const scope = { workspaceId: fixture.workspaceId, productId: fixture.productId, candidates: [login] };
      const embedsBefore = calls.embed;
      await fixture.database.db.transaction().execute((tx) => counting.decide(prepared, scope, tx));
      await fixture.database.db.transaction().execute((tx) => counting.decide(prepared, scope, tx));
      assert.equal(calls.embed, embedsBefore, 'no model call in decide');
      assert.equal(calls.forProduct, 1, 'loaded once');

      // Another process creates an issue: its vector is read alone, the product is not reloaded.
      const refund = await fixture.createIssue('refund');
      await detector.indexIssue(refund);
      const decision = await fixture.database.db.transaction().execute((tx) =>
        counting.decide(prepared, { ...scope, candidates: [login, refund] }, tx));
      assert.equal(decision.issueId, login.id);
      assert.equal(calls.forProduct, 1, 'not reloaded');
      assert.equal(calls.embed, embedsBefore, 'the new vector came from the database');
    });

    it('reads the candidates again only when another writer moved the product\'s version, and takes in its own creations', async () => {
      const { detector: counting } = counted(fixture);
      after(() => counting.close());
      const login = await fixture.createIssue('login fails');
      let reads = 0;
      let listedNow: Candidate[] = [{ ...login, createdAt: '2025-01-01T00:00:00.000Z' }];
      const decideAt = async (version: number, title: string) =>
        counting.decide(await counting.prepare({ title, description: null }), {
          workspaceId: fixture.workspaceId, productId: fixture.productId, version, candidates: async () => (reads++, listedNow),
        });
      await decideAt(1, 'login fails');
      assert.equal((await decideAt(1, 'refund')).issueId, null);
      assert.equal(reads, 1, 'read once at version 1');

      const refund = await fixture.createIssue('refund');
      counting.created!({ ...refund, createdAt: '2025-01-02T00:00:00.000Z', open: true, version: 2 });
      assert.equal((await decideAt(2, 'refund')).issueId, refund.id, 'its own creation is a candidate');
      assert.equal(reads, 1, 'not read again after its own creation');

      listedNow = [listedNow[0]];
      assert.equal((await decideAt(5, 'refund')).issueId, null, 'another writer closed it');
      assert.equal(reads, 2);
    });

    it('catches up with the issues written since its version, reading every candidate only for one it cannot place', async () => {
      const { detector: counting } = counted(fixture);
      after(() => counting.close());
      const [login, refund] = [await fixture.createIssue('login fails'), await fixture.createIssue('refund')];
      const at = (issue: Candidate, createdAt: string, open = true): CandidateChange => ({ ...issue, createdAt, open });
      const reads = { candidates: 0, changes: 0 };
      let changes: CandidateChange[] = [];
      const decideAt = async (version: number, title: string) =>
        counting.decide(await counting.prepare({ title, description: null }), {
          workspaceId: fixture.workspaceId, productId: fixture.productId, version,
          candidates: async () => (reads.candidates++, [at(login, '2025-01-01T00:00:00.000Z'), at(refund, '2025-01-02T00:00:00.000Z')]),
          changedSince: async () => (reads.changes++, changes),
        });
      assert.equal((await decideAt(1, 'refund')).issueId, refund.id);

      // Elsewhere: `refund` closed, `login` renamed, a new issue after both.
      const fresh = await fixture.createIssue('refund');
      changes = [at(refund, '2025-01-02T00:00:00.000Z', false), at({ ...login, title: 'refund' }, '2025-01-01T00:00:00.000Z'), at(fresh, '2025-01-03T00:00:00.000Z')];
      const caughtUp = await decideAt(4, 'refund');
      assert.deepEqual(reads, { candidates: 1, changes: 1 });
      assert.equal(caughtUp.issueId, login.id, 'the renamed issue, the older of two equal matches; the closed one is gone');
      assert.equal((await decideAt(4, 'refund')).issueId, login.id);
      assert.deepEqual(reads, { candidates: 1, changes: 1 }, 'current again');

      // Reopened elsewhere, `refund` sorts before the newest: the whole list is read.
      changes = [at(refund, '2025-01-02T00:00:00.000Z')];
      await decideAt(5, 'refund');
      assert.deepEqual(reads, { candidates: 2, changes: 2 });
    });

    it('embeds a product\'s candidates that have no vector before the transaction (warm), once for concurrent warms, so that deciding calls no model', async () => {
      const { calls, detector: counting } = counted(fixture);
      after(() => counting.close());
      const repository = embeddingRepository(fixture.database.db);
      const { workspaceId, productId } = fixture;
      // Created under another matcher, as before the `auto` matcher switched to the model: no vectors.
      const titles = ['refund login', 'fails', 'login refund fails', 'refund fails', 'fails login'];
      // Distinct texts (an unknown word adds nothing to a vector): the matcher embeds a text once.
      for (const title of Array.from({ length: EMBED_BATCH + 6 }, (_, i) => `${titles[i % titles.length]} n${i}`)) {
        await fixture.createIssue(title);
      }
      const open = await repository.openCandidates(workspaceId, productId);
      const current = new Set((await repository.forIssues(workspaceId, open.map((c) => c.id), tiny.model)).map((row) => `${row.issueId} ${row.textHash}`));
      const missing = open.filter((c) => !current.has(`${c.id} ${textHash(issueText(c))}`)).length;
      assert.ok(missing > EMBED_BATCH, `${missing} candidates without a vector`);

      const prepared = await counting.prepare({ title: 'LOGIN FAILS', description: null });
      const scope = warmScope(fixture);
      const embedsBefore = calls.embed;
      await Promise.all([counting.warm!(prepared, scope), counting.warm!(prepared, scope)]);
      assert.equal(calls.forProduct, 1, 'two concurrent warms, one read of the product');
      assert.equal(calls.embed - embedsBefore, Math.ceil(missing / EMBED_BATCH), `the ${missing} missing, ${EMBED_BATCH} a call`);
      const stored = await repository.forIssues(workspaceId, open.map((c) => c.id), tiny.model);
      assert.deepEqual(
        open.filter((c) => !stored.some((row) => row.issueId === c.id && row.textHash === textHash(issueText(c)))).map((c) => c.title),
        [], 'every candidate has a vector of its current text',
      );

      let candidateReads = 0;
      const decideInTransaction = (matcher: DuplicateDetector) => fixture.database.db.transaction().execute(async (tx) =>
        matcher.decide(prepared, {
          workspaceId, productId,
          version: await repository.productVersion(workspaceId, productId, tx),
          candidates: async () => (candidateReads++, repository.openCandidates(workspaceId, productId, tx)),
        }, tx));
      const decision = await decideInTransaction(counting);
      assert.deepEqual({ embeds: calls.embed - embedsBefore, forProduct: calls.forProduct, candidateReads }, {
        embeds: Math.ceil(missing / EMBED_BATCH), forProduct: 1, candidateReads: 0,
      }, 'the decision read and embedded nothing');
      const { detector: unwarmed } = counted(fixture);
      after(() => unwarmed.close());
      assert.deepEqual(decision, await decideInTransaction(unwarmed), 'the decision of a matcher that was not warmed');
      assert.ok(decision.issueId !== null && Math.abs(decision.score! - 1) < 1e-5, JSON.stringify(decision));
      await counting.warm!(prepared, scope);
      assert.equal(calls.forProduct, 1, 'a warmed product is not read again');
    });

    it('leaves a product whose warm failed (the model down) to the next warm, which embeds what is missing', async () => {
      let down = false;
      const { calls, detector: counting } = counted(fixture, () => down);
      after(() => counting.close());
      const prepared = await counting.prepare({ title: 'refund fails', description: null });
      await fixture.createIssue('refund fails after login');
      const scope = warmScope(fixture);
      down = true;
      await assert.rejects(counting.warm!(prepared, scope), (error: Error) => error.name === 'DetectionError' && /the model is down/.test(error.message));
      assert.equal(calls.forProduct, 1, 'the product\'s vectors were loaded before the model failed');
      down = false;
      const embedsBefore = calls.embed;
      await counting.warm!(prepared, scope);
      assert.equal(calls.embed - embedsBefore, 1, 'the new issue, embedded by the next warm');
      await counting.warm!(prepared, scope);
      assert.deepEqual({ embeds: calls.embed - embedsBefore, forProduct: calls.forProduct }, { embeds: 1, forProduct: 1 }, 'warm now: nothing read or embedded');
    });

    it('re-embeds a candidate whose stored vector is for an older text, and stores the new one', async () => {
      const { calls, detector: counting } = counted(fixture);
      after(() => counting.close());
      const issue = await fixture.createIssue('refund');
      await detector.indexIssue(issue);
      const renamed = { ...issue, title: 'login fails' };
      await fixture.database.db.transaction().execute((tx) => embeddingRepository(tx).bumpProductVersion(fixture.workspaceId, fixture.productId, tx));
      const decision = await decide(counting, 'LOGIN FAILS', [renamed]);
      assert.equal(decision.issueId, issue.id);
      assert.equal(calls.embed, 2, 'the report, then the stale candidate');
      const [stored] = await embeddingRepository(fixture.database.db).forIssues(fixture.workspaceId, [issue.id], tiny.model);
      assert.equal(stored.textHash, textHash('login fails'));
    });

    it('stores an issue created from a report with the report\'s vector, without asking the model again', async () => {
      const { calls, detector: counting } = counted(fixture);
      after(() => counting.close());
      const prepared = await counting.prepare({ title: 'refund', description: 'login' });
      const issue = await fixture.createIssue('refund', 'login');
      await counting.indexIssue(issue);
      assert.equal(calls.embed, 1, 'the report only');
      const [stored] = await embeddingRepository(fixture.database.db).forIssues(fixture.workspaceId, [issue.id], tiny.model);
      assertClose(stored.vector, Array.from((prepared as unknown as { vector: Float32Array }).vector));
    });

    it('answers a batch of concurrent requests with the right vector each', async () => {
      const texts = ['login', 'fails', 'refund', 'login fails', 'refund login'];
      const prepared = await Promise.all(texts.map((title) => detector.prepare({ title, description: null })));
      prepared.forEach((p, i) => assertClose((p as unknown as { vector: Float32Array }).vector, expected(['query', ':', ...texts[i].split(' ')])));
    });
  });
}

describe('auto matcher', () => {
  // The matcher choice never reaches the store; an empty in-memory database stands in for it.
  const database = createDatabase('sqlite::memory:');
  after(() => database.close());
  const store = embeddingRepository(database.db);

  it('uses the local model when it loads', async () => {
    const detector = await createDuplicateDetector(loadConfig({ ...env, LOOPDESK_DEDUP_PROVIDER: 'auto' }).dedup, { store, logger });
    after(() => detector.close());
    assert.equal(detector.name, 'local:loopdesk-test/e5-tiny');
  });

  it('answers with lexical at once when the model is not on disk, saying so, and warns once per failed load', async () => {
    logs.length = 0;
    const empty = mkdtempSync(join(tmpdir(), 'no-model-'));
    const config = loadConfig({ ...env, LOOPDESK_DEDUP_PROVIDER: 'auto', LOOPDESK_MODELS_DIR: empty, LOOPDESK_MODEL_RETRY_MS: '3600000' }).dedup;
    const detector = await createDuplicateDetector(config, { store, logger });
    after(() => detector.close());
    assert.equal(detector.name, 'lexical');
    assert.equal(logs.length, 1);
    assert.match(logs[0], /^info Waiting for the files of the model loopdesk-test\/e5-tiny in LOOPDESK_MODELS_DIR .*LOOPDESK_DEDUP_PROVIDER=lexical, openai or local/);
    while (logs.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.match(logs[1], /^warn Could not load the model loopdesk-test\/e5-tiny \(.+\); duplicate detection stays on the lexical matcher and tries again in 60 min\.$/);
    assert.equal(detector.name, 'lexical');
  });

  it('reports a model that cannot be loaded as a detection failure with `local`', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-model-'));
    const detector = await createDuplicateDetector(loadConfig({ ...env, LOOPDESK_MODELS_DIR: empty }).dedup, { store, logger });
    after(() => detector.close());
    await assert.rejects(detector.prepare({ title: 'login', description: null }), { name: 'DetectionError' });
  });
});
