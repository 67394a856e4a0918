// The built-in extractive summarizer on support messages as customers write them: it keeps the
// sentences that state the problem, in their order and language, within 300 characters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Embedder } from '../../src/dedup/embedding-detector.js';
import { extractiveSummary, SUMMARY_MAX_LENGTH } from '../../src/summaries/extractive.js';
import { cutAtWord, lengthOf, sentencesOf } from '../../src/summaries/sentences.js';

const ENGLISH = [
  "Hi there! Hope you're doing well.",
  'Since the update to version 4.2 yesterday, exporting a report to PDF fails with an error 500.',
  'I tried Chrome and Firefox and the PDF export fails in both.',
  'Could you please look into it? Thanks, Ana',
].join(' ');

const SPANISH = [
  'Hola, buenos días.',
  'Desde ayer no puedo iniciar sesión en la aplicación móvil.',
  'Cada vez que intento iniciar sesión me aparece el mensaje "contraseña incorrecta", aunque en la web sí puedo entrar con la misma contraseña.',
  'Muchas gracias de antemano.',
].join(' ');

const GERMAN = [
  'Sehr geehrte Damen und Herren,',
  'seit dem 3. März werden unsere Rechnungen doppelt abgebucht.',
  'Im Kundenkonto sehe ich für jede Rechnung zwei Abbuchungen vom selben Tag.',
  'Mit freundlichen Grüßen',
  'Jonas Weber',
].join('\n');

/** Whether every sentence of `summary` is one of the customer's, in the order they wrote them. */
function inOriginalOrder(summary: string, text: string): boolean {
  let from = 0;
  for (const sentence of sentencesOf(summary)) {
    const at = text.replace(/\s+/g, ' ').indexOf(sentence, from);
    if (at < 0) return false;
    from = at + sentence.length;
  }
  return true;
}

describe('extractive summaries', () => {
  it('keeps the English sentences that state the problem, not the greeting or the thanks', async () => {
    const summary = (await extractiveSummary([ENGLISH]))!;
    assert.match(summary, /exporting a report to PDF fails with an error 500/);
    assert.match(summary, /the PDF export fails in both/);
    assert.doesNotMatch(summary, /Hi there|Hope you|Thanks|look into it/);
    assert.ok(inOriginalOrder(summary, ENGLISH), summary);
  });

  it('keeps the Spanish sentences about the failed sign-in, in Spanish', async () => {
    const summary = (await extractiveSummary([SPANISH], { locale: 'es' }))!;
    assert.match(summary, /^Desde ayer no puedo iniciar sesión en la aplicación móvil\./);
    assert.match(summary, /contraseña incorrecta/);
    assert.doesNotMatch(summary, /Hola|gracias/i);
    assert.ok(lengthOf(summary) <= SUMMARY_MAX_LENGTH);
  });

  it('keeps the German sentences about the double charge, with "3. März" in one piece, the first letter in upper case', async () => {
    const summary = (await extractiveSummary([GERMAN], { locale: 'de' }))!;
    assert.equal(summary, 'Seit dem 3. März werden unsere Rechnungen doppelt abgebucht. Im Kundenkonto sehe ich für jede Rechnung zwei Abbuchungen vom selben Tag.');
  });

  it('reads every message of the contact, in order', async () => {
    const messages = [
      'Hello! Our team cannot upload invoices anymore.',
      'Sorry, one more detail: uploading invoices larger than 2 MB shows a blank page.',
      'Small invoices upload fine. Thanks!',
    ];
    const summary = (await extractiveSummary(messages))!;
    assert.match(summary, /cannot upload invoices/);
    assert.match(summary, /uploading invoices larger than 2 MB shows a blank page/);
    assert.ok(inOriginalOrder(summary, messages.join(' ')), summary);
  });

  it('answers a one-sentence message with that sentence, and nothing for blank text', async () => {
    assert.equal(await extractiveSummary(['The app crashes when I open settings.']), 'The app crashes when I open settings.');
    assert.equal(await extractiveSummary(['  \n\t ']), null);
    assert.equal(await extractiveSummary([]), null);
  });

  it('never exceeds 300 characters: a very long sentence is cut at a word with an ellipsis', async () => {
    const long = `When I open the dashboard ${'and switch between the monthly and weekly views '.repeat(20)}the charts disappear.`;
    const summary = (await extractiveSummary([long]))!;
    assert.ok(lengthOf(summary) <= SUMMARY_MAX_LENGTH, `${lengthOf(summary)} characters`);
    assert.match(summary, /^When I open the dashboard and switch .* \p{L}+…$/u);

    const many = Array.from({ length: 400 }, (_, i) => `Report number ${i} fails to export because the export queue is stuck again.`).join(' ');
    for (const text of [many, ENGLISH.repeat(30), `${'x'.repeat(1000)} broken`]) {
      const cut = (await extractiveSummary([text]))!;
      assert.ok(lengthOf(cut) <= SUMMARY_MAX_LENGTH, `${lengthOf(cut)} characters`);
    }
  });

  it('handles Chinese and Japanese text, which has no spaces between words', async () => {
    const chinese = '你好！我们的导出功能坏了。每次点击导出按钮，导出的文件都是空的。谢谢！';
    const summary = (await extractiveSummary([chinese], { locale: 'zh' }))!;
    assert.match(summary, /导出/);
    assert.ok(chinese.includes(summary.slice(0, 5)));
    const japanese = 'こんにちは。'.concat('アプリを開くとすぐに落ちます。'.repeat(40));
    const cut = (await extractiveSummary([japanese], { locale: 'ja' }))!;
    assert.ok(lengthOf(cut) <= SUMMARY_MAX_LENGTH);
  });

  it('keeps emoji whole: a text of emoji alone is its own summary, and cuts never split one', async () => {
    assert.equal(await extractiveSummary(['🔥🔥🔥']), '🔥🔥🔥');
    const thumbs = '👍🏽'.repeat(200);
    const cut = (await extractiveSummary([thumbs]))!;
    assert.ok(lengthOf(cut) <= SUMMARY_MAX_LENGTH);
    assert.match(cut, /^(👍🏽)+…$/u);
    const mixed = (await extractiveSummary(['The checkout button does nothing 😡 when the cart has a coupon. Checkout works without the coupon 🙂.']))!;
    assert.match(mixed, /😡/);
  });
});

/**
 * An embedder as models behave: every sentence shares a large common direction, plus one
 * dimension per topic word; "export" and "pdf" sentences point the same way.
 */
function topicEmbedder(): Embedder & { calls: number } {
  const topics = ['export', 'pdf', 'chrome', 'thank', 'hope'];
  return {
    name: 'test:topics',
    model: 'test-topics',
    calls: 0,
    async embed(texts) {
      this.calls++;
      return texts.map((text) => Float32Array.from([3, ...topics.map((topic) => (text.toLowerCase().includes(topic) ? 1 : 0))]));
    },
    async close() {},
  };
}

describe('extractive summaries with sentence vectors', () => {
  it('ranks by the vectors of the duplicate detector\'s embedder', async () => {
    const embedder = topicEmbedder();
    const summary = (await extractiveSummary([ENGLISH], { embedder }))!;
    assert.equal(embedder.calls, 1);
    assert.match(summary, /exporting a report to PDF fails/);
    assert.match(summary, /the PDF export fails in both/);
    assert.doesNotMatch(summary, /Hope you|Thanks/);
  });

  it('falls back to word overlap when the embedder fails', async () => {
    const failing: Embedder = { name: 'test:down', model: 'down', embed: async () => Promise.reject(new Error('model down')), close: async () => {} };
    assert.equal(await extractiveSummary([ENGLISH], { embedder: failing }), await extractiveSummary([ENGLISH]));
  });
});

describe('sentences and cuts', () => {
  it('does not break after abbreviations, titles or German ordinals', () => {
    assert.deepEqual(sentencesOf('I tried other browsers, e.g. Chrome. It fails.'), ['I tried other browsers, e.g. Chrome.', 'It fails.']);
    assert.deepEqual(sentencesOf('Dr. Weber wrote to you. Seit dem 12. Mai fehlt z.B. die Rechnung.'), ['Dr. Weber wrote to you.', 'Seit dem 12. Mai fehlt z.B. die Rechnung.']);
    assert.deepEqual(sentencesOf('Hi team\nthe export fails'), ['Hi team', 'the export fails']);
    assert.deepEqual(sentencesOf('It crashes on iOS 17. Thanks!'), ['It crashes on iOS 17.', 'Thanks!']);
    assert.deepEqual(sentencesOf('Plan B.\nWe use plan B.'), ['Plan B.', 'We use plan B.']);
  });

  it('cuts at a word boundary, leaving room for the ellipsis', () => {
    assert.equal(cutAtWord('The export fails every time.', 100), 'The export fails every time.');
    assert.equal(cutAtWord('The export fails every time.', 18), 'The export fails…');
    assert.equal(cutAtWord('Unbelievably-long-word', 10), 'Unbelieva…');
  });
});
