// Search agrees with itself (docs/search.md, "Both databases alike"): one corpus and one set of
// queries on SQLite and on PostgreSQL give the same results. Case, accents, the letters that fold
// to others (ß and ss, æ and ae, ø and o, ł and l, …) and prefixes are folded alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createIssue, createProduct, importConversation } from '../helpers/factories.js';
import { DIALECTS } from '../helpers/databases.js';
import { createTestContext } from '../helpers/harness.js';

/** Titles of issues, and a conversation per contact name, each word chosen for how it folds. */
const ISSUES = [
  'Weiß screen after login', 'Straße field rejects numbers', 'Delivery to Ærøskøbing fails', 'Łódź postcode unknown',
  'Đorđe cannot reset his password', 'Þórr theme colours', 'Œuvre complète export', 'Ĳsselmeer map tiles missing',
  'El botón de pago no responde', 'CAFÉ menu duplicated', 'Naïve date parsing', 'Checkout button does nothing',
  'Αθήνα timezone wrong', 'привет banner typo', 'Weiss and Strasse spelled plainly', 'Maßnahme list empty',
];
const CONTACTS = ['Jürgen Weiß', 'Søren Kierkegaard', 'Paweł Łukasz', 'Dženan Đokić'];

const QUERIES = [
  'weiss', 'WEISS', 'weiß', 'Weiß', 'wei', 'weis', 'strasse', 'straße', 'stras', 'massnahme', 'maßnahme', 'massn',
  'aeroskobing', 'ærøskøbing', 'AEROSKOBING', 'lodz', 'łódź', 'dorde', 'đorđe', 'thorr', 'þórr', 'oeuvre', 'œuvre', 'ijsselmeer', 'ĳsselmeer',
  'boton', 'botón', 'BOTON', 'cafe', 'café', 'naive', 'naïve', 'check', 'checkout butt', 'αθηνα', 'привет',
  'jurgen', 'soren', 'sören', 'pawel', 'lukasz', 'dzenan', 'dokic', 'đokić',
];

/** Each query's results as titles (ids differ between the databases), in the order they come. */
async function resultsOn(dialect: (typeof DIALECTS)[number]): Promise<Record<string, string[]>> {
  const context = await createTestContext(dialect);
  try {
    const { api } = context.a;
    const product = await createProduct(api);
    for (const title of ISSUES) await createIssue(api, product.id, { title });
    for (const [i, name] of CONTACTS.entries()) {
      await importConversation(api, product.id, { title: `Question from ${name}`, contact: { name, email: `contact-${i}@example.com` } });
    }
    const results: Record<string, string[]> = {};
    for (const q of QUERIES) {
      const res = await api.get(`/api/v1/search?q=${encodeURIComponent(q)}&limit=50`);
      assert.equal(res.status, 200, res.text);
      results[q] = res.body.data.map((result: { type: string; title: string }) => `${result.type}: ${result.title}`);
    }
    return results;
  } finally {
    await context.close();
  }
}

describe('search on SQLite and PostgreSQL [ext]', () => {
  it('gives the same results for the same words (each database ranks them its own way)', { skip: DIALECTS.length < 2 && 'needs both databases (test/run.ts)' }, async () => {
    const [sqlite, postgres] = [await resultsOn('sqlite'), await resultsOn('postgres')];
    // The same results; their order is each database's ranking (bm25, ts_rank), which may differ in ties.
    const same = (q: string) => JSON.stringify([...sqlite[q]!].sort()) === JSON.stringify([...postgres[q]!].sort());
    const differing = QUERIES.filter((q) => !same(q))
      .map((q) => `${q}: sqlite ${JSON.stringify(sqlite[q])}, postgres ${JSON.stringify(postgres[q])}`);
    assert.deepEqual(differing, []);
    // And what they agree on is what a person expects.
    const issues = (q: string) => sqlite[q]!.filter((title) => title.startsWith('issue: ')).map((title) => title.slice(7)).sort();
    assert.deepEqual(issues('weiss'), ['Weiss and Strasse spelled plainly', 'Weiß screen after login']);
    assert.deepEqual(issues('weiß'), issues('weiss'));
    assert.deepEqual(issues('stras'), ['Straße field rejects numbers', 'Weiss and Strasse spelled plainly']);
    assert.deepEqual(issues('aeroskobing'), ['Delivery to Ærøskøbing fails']);
    assert.deepEqual(issues('lodz'), ['Łódź postcode unknown']);
    assert.deepEqual(issues('boton'), ['El botón de pago no responde']);
    assert.deepEqual([...sqlite['jurgen']!].sort(), ['contact: Jürgen Weiß', 'conversation: Question from Jürgen Weiß']);
  });
});
