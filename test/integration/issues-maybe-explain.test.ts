// [ext] The deduplicating create says why: the best candidate's score, the matcher that decided,
// and the open issues of the review band when it created an issue (lexical matcher here; the
// real model's answers are in dedup-real-model.test.ts).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LEXICAL_BAND, POSSIBLE_DUPLICATES } from '../../src/dedup/thresholds.js';
import { createProduct } from '../helpers/factories.js';
import { describeEachDialect, type Client } from '../helpers/harness.js';

const MAYBE = '/api/v1/issues/maybe';

const report = async (api: Client, productId: string, title: string) => {
  const res = await api.post(MAYBE, { product_id: productId, title });
  assert.ok(res.status === 200 || res.status === 201, res.text);
  return res.body;
};

describeEachDialect('POST /api/v1/issues/maybe explains its decision [ext]', (ctx) => {
  it('answers score null, the detector and no possible duplicates for a product without open issues', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const body = await report(a.api, product.id, 'Export to CSV crashes the app');
    assert.equal(body.matched_existing, false);
    assert.equal(body.score, null);
    assert.equal(body.detector, 'lexical');
    assert.deepEqual(body.possible_duplicates, []);
  });

  it('gives the score of the issue it matched, and lists nothing else', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    await report(a.api, product.id, 'Export to CSV crashes the app');
    await report(a.api, product.id, 'Export to PDF crashes the app');
    const body = await report(a.api, product.id, 'export to CSV crashes the app!');
    assert.equal(body.matched_existing, true);
    assert.ok(body.score >= LEXICAL_BAND.autoLink && body.score <= 1, String(body.score));
    assert.equal(body.detector, 'lexical');
    assert.deepEqual(body.possible_duplicates, []);
  });

  it('lists up to three open issues that came close when it creates one, best first, with the best score', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const close: { id: string; shortcode: string; title: string }[] = [];
    for (const format of ['CSV', 'PDF', 'Word', 'JSON']) close.push((await report(a.api, product.id, `Export to ${format} crashes the app`)).data);
    await report(a.api, product.id, 'Password reset email never arrives');
    const body = await report(a.api, product.id, 'Export to XML crashes the app');
    assert.equal(body.matched_existing, false);
    const listed = body.possible_duplicates as { id: string; shortcode: string; title: string; score: number }[];
    assert.equal(listed.length, POSSIBLE_DUPLICATES);
    for (const issue of listed) {
      const original = close.find((c) => c.id === issue.id);
      assert.ok(original, `${issue.title} is one of the close issues`);
      assert.deepEqual({ shortcode: issue.shortcode, title: issue.title }, { shortcode: original.shortcode, title: original.title });
      assert.ok(issue.score >= LEXICAL_BAND.review && issue.score < LEXICAL_BAND.autoLink, String(issue.score));
    }
    assert.deepEqual(listed.map((i) => i.score), listed.map((i) => i.score).sort((x, y) => y - x));
    assert.equal(body.score, listed[0].score);
  });

  it('never lists an issue that is no longer open', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const done = (await report(a.api, product.id, 'Export to CSV crashes the app')).data;
    await a.api.patch(`/api/v1/issues/${done.id}`, { status: 'done' });
    const open = (await report(a.api, product.id, 'Export to PDF crashes the app')).data;
    const body = await report(a.api, product.id, 'Export to XML crashes the app');
    assert.deepEqual(body.possible_duplicates.map((i: { id: string }) => i.id), [open.id]);
  });

  it('describes score, detector and possible_duplicates in the OpenAPI document and llms.txt', async () => {
    const { a } = ctx();
    const document = (await a.api.get('/api/v1/openapi.json')).body;
    const schema = document.components.schemas.DeduplicatingCreateResult;
    assert.deepEqual(Object.keys(schema.properties), ['data', 'matched_existing', 'api_source_id', 'score', 'detector', 'possible_duplicates']);
    for (const field of ['score', 'detector', 'possible_duplicates']) assert.match(schema.properties[field].description, /^\[ext\]/, field);
    assert.deepEqual(Object.keys(schema.properties.possible_duplicates.items.properties), ['id', 'shortcode', 'title', 'score']);
    const llms = (await a.api.get('/api/v1/llms.txt')).text;
    assert.match(llms, /DeduplicatingCreateResult[^\n]*\n\s+fields: [^\n]*score[^\n]*detector[^\n]*possible_duplicates/);
  });
});
