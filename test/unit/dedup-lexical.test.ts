import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { Candidate } from '../../src/dedup/detector.js';
import { typo } from '../../src/dedup/lexical-terms.js';
import { BUILD_SLICE, createLexicalDetector } from '../../src/dedup/lexical.js';
import { normalize } from '../../src/dedup/text.js';

const BACKLOG: Candidate[] = [
  { id: 'login', title: 'Cannot log in with Google on Safari', description: null },
  { id: 'refund', title: 'Refund not received after cancelling the order', description: null },
  { id: 'export', title: 'Export to CSV drops the last row', description: 'Happens with every report over 1000 rows.' },
  { id: 'coupon', title: 'How to use coupon', description: null },
  { id: 'card', title: 'I have a visa debit card', description: null },
];

async function match(title: string, description: string | null = null, candidates = BACKLOG) {
  const detector = createLexicalDetector();
  return detector.decide(await detector.prepare({ title, description }), { workspaceId: 'w', productId: 'p', candidates });
}

describe('normalize', () => {
  it('folds Unicode forms, case, accents, punctuation and whitespace', () => {
    assert.equal(normalize('¿Cómo  CANCELO\tel pedido?!'), 'como cancelo el pedido');
    assert.equal(normalize('ｆｕｌｌ－ｗｉｄｔｈ Ⅻ'), 'full width xii');
    assert.equal(normalize('Ärger mit "Zahlung" — échec'), 'arger mit zahlung echec');
  });
});

describe('typo', () => {
  it('accepts one edit in a word of four letters or more, two from eight', () => {
    assert.ok(typo('refund', 'refudn'));
    assert.ok(typo('cancelling', 'canceling'));
    assert.ok(typo('cancellation', 'cancelatoin'));
    assert.ok(!typo('log', 'leg'));
    assert.ok(!typo('speak', 'speaker'));
  });
});

describe('lexical matcher', () => {
  it('is named lexical and matches nothing in an empty product', async () => {
    assert.equal(createLexicalDetector().name, 'lexical');
    assert.deepEqual(await match('Cannot log in', null, []), { issueId: null, score: null });
  });

  for (const [edit, title] of [
    ['the same words', 'Cannot log in with Google on Safari'],
    ['case and punctuation', 'CANNOT LOG IN WITH GOOGLE ON SAFARI!!!'],
    ['reordered words', 'On Safari, cannot log in with Google'],
    ['a typo', 'Cannot log in with Gogle on Safari'],
    ['an article added', 'Cannot log in with the Google on Safari'],
  ]) {
    it(`matches a report with ${edit}`, async () => {
      const decision = await match(title);
      assert.equal(decision.issueId, 'login', `score ${decision.score}`);
    });
  }

  it('matches accents and a changed article in Spanish', async () => {
    const decision = await match('No recibí el reembolso', null, [{ id: 'es', title: 'No recibi un reembolso', description: null }]);
    assert.equal(decision.issueId, 'es');
  });

  it('compares title and description together', async () => {
    const decision = await match('Export to CSV drops the last row', 'Happens with every report over 1000 rows');
    assert.equal(decision.issueId, 'export');
  });

  for (const [why, title] of [
    ['another problem on the same topic', 'Cannot sign up with Google on Safari'],
    ['a word added that changes the request', 'How to use select coupon'],
    ['a negation', 'I have no visa debit card'],
    ['a different problem', 'The app crashes when uploading a photo'],
  ]) {
    it(`does not match ${why}`, async () => {
      const decision = await match(title);
      assert.equal(decision.issueId, null, `score ${decision.score}`);
      assert.equal(typeof decision.score, 'number');
    });
  }
});

describe('lexical matcher, warmed before the transaction', () => {
  /** A product of `count` open issues, BACKLOG's first among them, counting its reads. */
  function product(count: number) {
    const candidates: Candidate[] = [
      BACKLOG[0]!,
      ...Array.from({ length: count - 1 }, (_, i) => ({ id: `issue-${i}`, title: `Widget ${i} shows error ${i * 7} on page ${i % 13}`, description: null })),
    ];
    const reads = { version: 0, candidates: 0 };
    const warmScope = {
      workspaceId: 'w',
      productId: 'p',
      version: async () => (reads.version++, 1),
      candidates: async () => (reads.candidates++, candidates),
    };
    const scope = { workspaceId: 'w', productId: 'p', version: 1, candidates: async () => (reads.candidates++, candidates) };
    return { candidates, reads, warmScope, scope };
  }

  it(`builds a product's first index ${BUILD_SLICE} issues at a time, the event loop free in between`, async () => {
    const { warmScope } = product(5 * BUILD_SLICE + 1);
    const detector = createLexicalDetector();
    const prepared = await detector.prepare({ title: 'Cannot log in with Google on Safari', description: null });
    let turns = 0;
    let warming = true;
    const turn = () => {
      if (!warming) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    await detector.warm!(prepared, warmScope);
    warming = false;
    assert.ok(turns >= 5, `the loop turned ${turns} times during the build of 6 slices`);
  });

  it('then decides without reading the candidates, as an index built in one go would', async () => {
    const { reads, warmScope, scope, candidates } = product(3 * BUILD_SLICE);
    const warmed = createLexicalDetector();
    const report = { title: 'Cannot log in with Gogle on Safari', description: null };
    const prepared = await warmed.prepare(report);
    await Promise.all([warmed.warm!(prepared, warmScope), warmed.warm!(prepared, warmScope)]);
    assert.deepEqual(reads, { version: 1, candidates: 1 }, 'two warms at once: one build');
    const decision = await warmed.decide(prepared, scope);
    assert.equal(reads.candidates, 1, 'the index is at the scope\'s version: no read in the transaction');
    assert.equal(decision.issueId, 'login');
    const inOneGo = createLexicalDetector();
    assert.deepEqual(decision, await inOneGo.decide(await inOneGo.prepare(report), { ...scope, candidates }));
  });
});

describe('dedup configuration', () => {
  it('defaults to auto with the multilingual e5 model, q8', () => {
    const { dedup } = loadConfig({});
    assert.equal(dedup.provider, 'auto');
    assert.equal(dedup.embeddingModel, 'Xenova/multilingual-e5-small');
    assert.equal(dedup.embeddingDtype, 'q8');
    assert.equal(dedup.modelsDir, null);
  });

  it('rejects unknown providers, bad thresholds and an OpenAI URL without a key', () => {
    assert.throws(() => loadConfig({ LOOPDESK_DEDUP_PROVIDER: 'magic' }), ConfigError);
    assert.throws(() => loadConfig({ LOOPDESK_DEDUP_THRESHOLD: '1.5' }), ConfigError);
    assert.throws(() => loadConfig({ LOOPDESK_OPENAI_BASE_URL: 'ftp://x' }), ConfigError);
    assert.throws(() => loadConfig({ LOOPDESK_DEDUP_PROVIDER: 'openai' }), /LOOPDESK_OPENAI_API_KEY/);
    assert.equal(loadConfig({ LOOPDESK_DEDUP_PROVIDER: 'openai', LOOPDESK_OPENAI_BASE_URL: 'http://localhost:11434/v1' }).dedup.openai.apiKey, null);
  });
});
