// Triage's pair classifier (docs/triage.md, "The pair classifier"): the features it reads, the
// logistic regression that trains it, and its scoring and decision against the shipped JSON.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pairModelFor } from '../../src/domain/triage/classifier/calibration.js';
import { featuresOf, reportText, signalsOf, type RankedScore } from '../../src/domain/triage/classifier/features.js';
import { decideBy, decidePair, probabilities, probabilityOf, type PairModel } from '../../src/domain/triage/classifier/pair-model.js';
import { fitLogistic } from '../../src/domain/triage/eval/logistic.js';

const ONE: RankedScore[] = [{ score: 0.9 }, { score: 0.5 }];
const features = (a: string, b: string, shortlist = ONE, at = 0) => featuresOf(signalsOf(a), signalsOf(b), shortlist, at);

describe('pair classifier features', () => {
  it('sees the same words in another order: bigrams and order fall, word overlap does not', () => {
    const f = features('Paris is bigger than London', 'London is bigger than Paris');
    assert.equal(f.word_jaccard, 1);
    assert.ok(f.bigram_jaccard < 0.5, `bigram_jaccard ${f.bigram_jaccard}`);
    assert.ok(f.in_order < 1 && f.order_gap > 0.5);
    const same = features('Paris flights are cheaper than London flights', 'paris flights are cheaper than london flights!');
    assert.deepEqual([same.same_text, same.bigram_jaccard, same.in_order, same.order_gap], [1, 1, 1, 0]);
  });

  it('tells differing numbers and identifiers from matching ones', () => {
    assert.deepEqual([features('App crashes on iOS 16', 'App crashes on iOS 17').numbers_differ, features('App crashes on iOS 16', 'App crashes on iOS 17').numbers_match], [1, 0]);
    assert.deepEqual([features('Error ERR_TIMEOUT on v2.3', 'error err_timeout on v2.3').numbers_differ, features('Error ERR_TIMEOUT on v2.3', 'error err_timeout on v2.3').numbers_match], [0, 1]);
    assert.equal(features('Order 123456 not delivered', 'Order 654321 not delivered').numbers_differ, 1);
    assert.equal(features('NullPointerException at start', 'IllegalStateException at start').numbers_differ, 1);
    assert.deepEqual([features('The app crashes', 'The app crashes').numbers_differ, features('The app crashes', 'The app crashes').numbers_match], [0, 0]);
  });

  it('sees a negation on one side only, in several languages and scripts', () => {
    assert.equal(features('The reset email arrives', 'The reset email never arrives').negation_differs, 1);
    assert.equal(features('I can log in', "I can't log in").negation_differs, 1);
    assert.equal(features('El correo llega', 'El correo no llega').negation_differs, 1);
    assert.equal(features('Die E-Mail kommt an', 'Die E-Mail kommt nicht an').negation_differs, 1);
    assert.equal(features('メールが届きます', 'メールが届きません').negation_differs, 1);
    assert.equal(features('邮件到了', '邮件没到').negation_differs, 1);
    assert.equal(features("I can't log in", 'I cannot log in').negation_differs, 0);
  });

  it('places the candidate in the shortlist: rank, and margin over the runner-up or behind the best', () => {
    const shortlist: RankedScore[] = [{ score: 0.9, cosine: 0.88 }, { score: 0.7, cosine: 0.7 }, { score: 0.4, cosine: 0.4 }];
    const best = features('a b', 'a b', shortlist, 0);
    const third = features('a b', 'a b', shortlist, 2);
    assert.deepEqual([best.top, best.rank, best.cosine], [1, 0, 0.88]);
    assert.ok(Math.abs(best.margin - 0.2) < 1e-12);
    assert.deepEqual([third.top, third.rank], [0, Math.log(3)]);
    assert.ok(Math.abs(third.margin + 0.5) < 1e-12);
    assert.equal(features('a b', 'a b', [{ score: 0.6 }], 0).margin, 0.6);
  });

  it('reads a chat whose title is its first line as its message alone', () => {
    assert.equal(reportText({ title: 'App crashes', description: 'App crashes\nwhen I open it' }), 'App crashes\nwhen I open it');
    assert.equal(reportText({ title: 'Crash', description: 'The app closes' }), 'Crash\nThe app closes');
    assert.equal(reportText({ title: 'Crash', description: null }), 'Crash');
  });

  it('knows the language pair and the script', () => {
    const cross = features('The password reset email never arrives', 'El correo para restablecer la contraseña nunca llega');
    assert.deepEqual([cross.same_language, cross.cross_language, cross.cross_script, cross.cjk], [0, 1, 0, 0]);
    const same = features('How do I cancel my order', 'How can I cancel the order');
    assert.deepEqual([same.same_language, same.cross_language], [1, 0]);
    const cjk = features('Push notifications are not delivered on iOS', 'iOS上的推送通知无法送达');
    assert.deepEqual([cjk.cross_script, cjk.cjk], [1, 1]);
    assert.ok(features('one two three four', 'one two').length_ratio === 0.5);
  });
});

describe('pair classifier model', () => {
  const model: PairModel = {
    matcher: 'test', features: ['score', 'same_text'], mean: [0.5, 0], scale: [0.25, 1], weights: [2, 3], bias: -1,
    auto_link: 0.9, review: 0.4,
    published: { link_precision: 0.9, link_recall: 0.1, review_precision: 0.4, review_recall: 0.4, conversations: 10, folds: 5 },
  };

  it('scores σ(bias + Σ w (x − mean) / scale) over the features the JSON names', () => {
    const all = features('The app crashes', 'The app crashes', [{ score: 1 }]);
    const expected = 1 / (1 + Math.exp(-(-1 + 2 * ((1 - 0.5) / 0.25) + 3 * 1)));
    assert.ok(Math.abs(probabilityOf(model, all) - expected) < 1e-12);
    assert.deepEqual(probabilities(model, 'The app crashes', [{ id: 'a', text: 'the app crashes', score: 1 }]).map((p) => p.toFixed(6)), [expected.toFixed(6)]);
  });

  it('links the most probable candidate from auto_link up, else offers those from review up, most probable first', () => {
    assert.deepEqual(decideBy(['a', 'b', 'c'], [0.5, 0.95, 0.2], model), { link: { id: 'b', probability: 0.95 }, possible: [] });
    assert.deepEqual(decideBy(['a', 'b', 'c', 'd', 'e'], [0.5, 0.6, 0.2, 0.45, 0.41], model), {
      link: null, possible: [{ id: 'b', probability: 0.6 }, { id: 'a', probability: 0.5 }, { id: 'd', probability: 0.45 }],
    });
    assert.deepEqual(decideBy([], [], model), { link: null, possible: [] });
  });

  it('ships a model for the lexical matcher and for e5 behind the openai matcher, none for a matcher not calibrated or a judge', () => {
    for (const [name, family] of [['lexical', 'lexical'], ['openai:multilingual-e5-small-q4-query', 'multilingual-e5-small']]) {
      const shipped = pairModelFor(name)!;
      assert.equal(shipped?.matcher, family, name);
      assert.equal(shipped.features.length, shipped.weights.length);
      assert.ok(shipped.review <= shipped.auto_link);
    }
    assert.equal(pairModelFor('openai:text-embedding-3-small'), null);
    // int8 weights never measured (docs/triage.md); a judge decides by itself.
    assert.equal(pairModelFor('local:Xenova/multilingual-e5-small'), null);
    assert.equal(pairModelFor('openai:multilingual-e5-small-q4-query+judge:gpt-4o-mini'), null);
  });

  it('the shipped lexical model links a repeated report and not the same words in another order', () => {
    const lexical = pairModelFor('lexical')!;
    const repeat = decidePair(lexical, 'Refund not received after cancelling the order', [
      { id: 'refund', text: 'Refund not received after cancelling the order', score: 1 }, { id: 'other', text: 'Order not received', score: 0.45 },
    ]);
    assert.equal(repeat.link?.id, 'refund');
    const swapped = decidePair(lexical, 'Flights from Paris to London are cheaper than trains', [
      { id: 'swapped', text: 'Flights from London to Paris are cheaper than trains', score: 0.97 }, { id: 'other', text: 'Trains are late', score: 0.2 },
    ]);
    assert.equal(swapped.link, null);
  });

  it('the shipped e5 model links a repeated report at its calibrated threshold, and offers the same words in another order', () => {
    const e5 = pairModelFor('openai:multilingual-e5-small-q4-query')!;
    // e5's scores are cosines (plus the no-shared-word bonus): near 1 for a repeat and for reordered words alike.
    const report = 'Refund not received after cancelling the order';
    const repeat = decidePair(e5, report, [
      { id: 'refund', text: report, score: 1, cosine: 1 }, { id: 'other', text: 'Order not received', score: 0.93, cosine: 0.93 },
    ]);
    assert.equal(repeat.link?.id, 'refund');
    assert.ok(repeat.link!.probability >= e5.auto_link);
    const swapped = decidePair(e5, 'Flights from Paris to London are cheaper than trains', [
      { id: 'swapped', text: 'Flights from London to Paris are cheaper than trains', score: 0.99, cosine: 0.99 }, { id: 'other', text: 'Trains are late', score: 0.9, cosine: 0.9 },
    ]);
    assert.equal(swapped.link, null);
    assert.deepEqual(swapped.possible.map((p) => p.id), ['swapped']);
  });
});

describe('logistic regression', () => {
  it('fits a separable-with-noise problem deterministically, and its scale is the feature\'s spread', () => {
    const xs = Array.from({ length: 200 }, (_, i) => [i / 200, (i * 7919) % 13]);
    const ys = xs.map(([x], i) => ((x > 0.5) !== (i % 17 === 0) ? 1 : 0) as 0 | 1);
    const a = fitLogistic(xs, ys);
    assert.deepEqual(fitLogistic(xs, ys), a);
    assert.ok(a.weights[0] > 2, `weight ${a.weights[0]}`);
    assert.ok(Math.abs(a.weights[1]) < Math.abs(a.weights[0]) / 4);
    assert.ok(Math.abs(a.mean[0] - 0.4975) < 1e-9);
  });
});
