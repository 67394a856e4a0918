// A realistic inbox for the layout's measurements and the docs' screenshots: a dozen open
// conversations from several contacts (one a long chat going back and forth), tags, assignees,
// priorities, an internal note, triage suggestions of both kinds, and an open issue they match.
// Everything goes through the public APIs (`/api/v1` with the first-start key, the widget API as
// a visitor), one call after another.
//
// Screenshots of it stay the same from run to run: `showAtFixedTime` gives a browser profile a
// fixed clock and moves every timestamp the app receives to a fixed morning, so "2 hours ago" and
// "started Mar 2, 2026" read the same in every run (the seed's real times differ by seconds).
import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import type { AppServer } from './app-server.js';
import { eventually } from './browser-expect.js';
import { CSV_ISSUE, CSV_PARAPHRASE, CSV_REPEAT, UNRELATED } from './triage.js';

export interface SeededInbox {
  longThread: { id: string; title: string; newest: string };
  /** The long thread's contact writes again (through the widget, as the customer). */
  contactWrites(body: string): Promise<void>;
  /** Makes the profile's pages show the seed at a fixed time (see above). */
  showAtFixedTime(context: BrowserContext): Promise<void>;
}

/** What every timestamp of the seed becomes (give or take its seconds), and the pages' clock. */
const SHOWN_START = Date.parse('2026-03-02T09:00:00Z');
const SHOWN_NOW = SHOWN_START + 2 * 3600_000 + 5 * 60_000;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const LONG_THREAD: [sender: 'contact' | 'agent', body: string][] = [
  ['contact', 'Hi! Since this morning\'s update my notes stop syncing between my phone and my laptop.'],
  ['agent', 'Hi Maya, sorry about that. Which version does the app show under Settings → About?'],
  ['contact', 'It says 4.12.0 on the phone and 4.12.1 on the laptop.'],
  ['agent', 'Thanks. Could you pull down on the notes list to force a sync, and tell me what it says?'],
  ['contact', 'It spins for a while, then "Sync failed (409)".'],
  ['agent', 'That helps a lot: a 409 means the server saw two versions of the same note. Did you edit a note offline?'],
  ['contact', 'Yes, on the train, two notes. Should I delete them?'],
  ['agent', 'Please don\'t: they are safe on the phone. I am asking our sync team to look at your account now.'],
  ['contact', 'OK, thank you. Is there anything else I can try meanwhile?'],
  ['agent', 'Leave the phone on Wi-Fi with the app open for a few minutes; it retries every minute.'],
  ['contact', 'Done. Still the same error, and now the laptop shows an older copy of one note.'],
];

const OTHERS: { title: string; body: string; contact: { name: string; email: string }; changes?: Record<string, unknown>; answer?: string }[] = [
  { ...CSV_REPEAT, contact: { name: 'Bo Chen', email: 'bo@example.com' }, changes: { priority: 'high' } },
  { ...CSV_PARAPHRASE, contact: { name: 'Lena Fischer', email: 'lena@example.com' }, changes: { tags: ['export'] } },
  { ...UNRELATED, contact: { name: 'Tom Okafor', email: 'tom@example.com' }, changes: { tags: ['billing'], assignee_id: 'me', status: 'in_progress' } },
  { title: 'Cannot invite a teammate', body: 'The invite button is greyed out on our workspace, we are on the Team plan.', contact: { name: 'Priya Raman', email: 'priya@example.com' } },
  { title: 'Password reset email never arrives', body: 'I asked for a reset three times, nothing in spam either.', contact: { name: 'Jonas Berg', email: 'jonas@example.com' }, changes: { priority: 'urgent', tags: ['login'] } },
  { title: 'Refund for a double charge', body: 'We were charged twice for March, could you refund one of them?', contact: { name: 'Sofia Rossi', email: 'sofia@example.com' }, changes: { tags: ['billing'] }, answer: 'Hi Sofia, I see both charges. The refund is on its way, allow 5 days.' },
  { title: 'Webhook retries flood our endpoint', body: 'After a short outage we got 4,000 retries in ten minutes.', contact: { name: 'Dev Kumar', email: 'dev@example.com' } },
  { title: 'Calendar shows the wrong time zone', body: 'Events appear one hour late since the clocks changed.', contact: { name: 'Aiko Tanaka', email: 'aiko@example.com' } },
  { title: 'How do I change my plan?', body: 'We would like to move to yearly billing.', contact: { name: 'Carl Nilsson', email: 'carl@example.com' }, answer: 'Hi Carl, Settings → Billing → Change plan; yearly saves two months.' },
  { title: 'Dark mode for the dashboard', body: 'Would love a dark theme, the white is harsh at night.', contact: { name: 'Noor Haddad', email: 'noor@example.com' } },
];

export async function seedInbox(app: AppServer): Promise<SeededInbox> {
  const seedStart = Date.now();
  const product = (await app.api('POST', '/api/v1/products', { name: 'Acme Notes', triage: 'off', widget_config: { proof_of_work: false } })).data;
  await app.api('POST', '/api/v1/issues', { product_id: product.id, ...CSV_ISSUE });
  await app.api('POST', '/api/v1/issues', { product_id: product.id, title: 'Dark mode', priority: 'low' });

  /** A visitor's request to the product's widget API; the answer's `data`. */
  const widget = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${app.baseUrl}/widget/v1/${product.widget_key}${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: JSON.stringify(body),
    });
    const text = await response.text();
    assert.equal(response.status, 201, `POST ${path}: ${text}`);
    return JSON.parse(text).data;
  };

  const triaged: string[] = [];
  for (const { changes, answer, ...conversation } of OTHERS) {
    const { id } = (await app.api('POST', '/api/v1/conversations', { product_id: product.id, ...conversation })).data;
    if (changes) await app.api('PATCH', `/api/v1/conversations/${id}`, changes);
    if (answer) await app.api('POST', `/api/v1/conversations/${id}/messages`, { body: answer });
    if ([CSV_REPEAT.body, CSV_PARAPHRASE.body, UNRELATED.body].includes(conversation.body)) triaged.push(id);
  }
  // A draft's description comes from the summary: each is triaged once its summary is written.
  const summarized = async (id: string, words: string) =>
    eventually(async () => {
      const summary: string | null = (await app.api('GET', `/api/v1/conversations/${id}`)).data.ai_summary;
      return summary !== null && summary.includes(words);
    }, `the summary of ${id}`);
  for (const id of triaged) {
    await summarized(id, '');
    await app.api('POST', `/api/v1/conversations/${id}/triage`);
  }

  // The long chat, newest of all: the customer through the widget, the team through the API.
  const visitor = await widget('/sessions', { name: 'Maya Patel', email: 'maya@example.com' });
  const [[, first], ...rest] = LONG_THREAD;
  const { id, title } = await widget('/conversations', { body: first }, visitor.token);
  for (const [sender, body] of rest) {
    if (sender === 'contact') await widget(`/conversations/${id}/messages`, { body }, visitor.token);
    else await app.api('POST', `/api/v1/conversations/${id}/messages`, { body });
  }
  await app.api('POST', `/api/v1/conversations/${id}/notes`, { body: 'Sync team: account flagged, conflict on two notes edited offline.' });
  await app.api('PATCH', `/api/v1/conversations/${id}`, { assignee_id: 'me', tags: ['sync', 'mobile'], priority: 'high' });
  await summarized(id, 'older copy of one note');
  await app.api('POST', `/api/v1/conversations/${id}/triage`);

  const shownAt = (iso: string) => new Date(SHOWN_START + Math.min(Math.max(Date.parse(iso) - seedStart, 0), 59_000)).toISOString();
  const shift = (value: unknown): unknown => {
    if (typeof value === 'string') return ISO_TIMESTAMP.test(value) ? shownAt(value) : value;
    if (Array.isArray(value)) return value.map(shift);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shift(inner)]));
    return value;
  };

  return {
    longThread: { id, title, newest: 'Sync team: account flagged, conflict on two notes edited offline.' },
    contactWrites: async (body) => { await widget(`/conversations/${id}/messages`, { body }, visitor.token); },
    showAtFixedTime: async (context) => {
      await context.clock.setFixedTime(SHOWN_NOW);
      // Answers of /api/v1 (not the event stream, which stays live and unchanged).
      await context.route((url) => url.pathname.startsWith('/api/v1/') && !url.pathname.startsWith('/api/v1/events'), async (route) => {
        const response = await route.fetch();
        if (!(response.headers()['content-type'] ?? '').includes('application/json')) return route.fulfill({ response });
        return route.fulfill({ response, json: shift(await response.json()) });
      });
    },
  };
}
