// A support history for the reports' tests (test/integration/reports*.test.ts), played through the
// API and the widget on a test clock, and a second, naive computation of the reports' figures from
// what it leaves: the conversations' raw messages (read back through the API) and the resolutions
// and ratings the script itself noted. The naive path shares no code with src/domain/reports: it
// walks the messages, counts business minutes one by one with Intl, and takes nearest ranks by sorting.
import assert from 'node:assert/strict';
import { createProduct } from './factories.js';
import type { Client, TestContext } from './harness.js';
import type { ManualClock } from './manual-clock.js';
import { startSession, visitor, widgetPath } from './widget.js';

const MINUTE = 60_000;

/** The default calendar the scenario's app is started with (LOOPDESK_DEFAULT_CALENDAR). */
export const OFFICE = 'Office hours';
export const OFFICE_ZONE = 'Europe/Berlin';
const OFFICE_HOURS: [number, number] = [9 * 60, 17 * 60];

export interface Agent {
  id: string;
  name: string;
  api: Client;
}

export interface Played {
  /** The window that covers it all. */
  from: string;
  to: string;
  slaProductId: string;
  plainProductId: string;
  conversationIds: string[];
  /** When each conversation was resolved or dismissed, in order. */
  closes: Map<string, string[]>;
  /** The latest rating of each rated conversation, and when. */
  ratings: Map<string, { rating: number; at: string }>;
  agents: Agent[];
  /** The policy's targets (round the clock) of the SLA product's conversations. */
  targets: { first_response: number; next_response: number; resolution: number };
}

/** A deterministic sequence of integers in [0, n). */
function sequence(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % n;
  };
}

interface Step {
  at: number;
  run: () => Promise<void>;
}

/**
 * Plays `count` conversations over about three days, half in a product an SLA policy (round the
 * clock) covers, half in one none does: contact messages, notes, replies by two agents, follow-ups,
 * resolutions, a reopening, ratings. Every instant is a whole minute.
 */
export async function playScenario(ctx: TestContext, clock: ManualClock, count = 24): Promise<Played> {
  const { api } = ctx.a;
  const random = sequence(41);
  const calendar = await api.post('/api/v1/calendars', {
    name: OFFICE, timezone: OFFICE_ZONE,
    hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => [day, [['09:00', '17:00']]])),
  });
  assert.equal(calendar.status, 201, calendar.text);
  const slaProduct = await createProduct(api, { widget_config: { proof_of_work: false } });
  const plainProduct = await createProduct(api, { widget_config: { proof_of_work: false } });
  const targets = { first_response: 3600, next_response: 1800, resolution: 86_400 };
  const policy = await api.post('/api/v1/sla-policies', {
    name: 'Reports scenario', conditions: { product_ids: [slaProduct.id] },
    first_response_seconds: targets.first_response, next_response_seconds: targets.next_response, resolution_seconds: targets.resolution,
  });
  assert.equal(policy.status, 201, policy.text);
  const bea = await ctx.services.admin.createMember({ workspaceId: ctx.a.id, name: 'Bea', role: 'agent' });
  const agents: Agent[] = [
    { id: ctx.a.owner.id, name: 'owner', api },
    { id: bea.id, name: 'Bea', api: ctx.client((await ctx.services.admin.createKey({ workspaceId: ctx.a.id, memberId: bea.id })).key) },
  ];

  // Every instant a whole minute (an earlier test may have left the clock between two).
  clock.advance(MINUTE - (Date.parse(clock.now()) % MINUTE));
  const start = Date.parse(clock.now());
  const steps: Step[] = [];
  const conversationIds: string[] = [];
  const closes = new Map<string, string[]>();
  const ratings = new Map<string, { rating: number; at: string }>();
  for (let i = 0; i < count; i++) {
    const product = i % 2 === 0 ? slaProduct : plainProduct;
    let customer: Client;
    const agent = agents[random(2)]!;
    const t0 = start + (i * 170 + random(120)) * MINUTE;
    let id = '';
    const contact = (body: string) => async () => {
      const res = await customer.post(widgetPath(product.widget_key, `/conversations/${id}/messages`), { body });
      assert.equal(res.status, 201, res.text);
    };
    const post = (path: string, body: string) => async () => {
      const res = await agent.api.post(`/api/v1/conversations/${id}/${path}`, { body });
      assert.equal(res.status, 201, res.text);
    };
    const close = (status: 'resolved' | 'dismissed') => async () => {
      const res = await agent.api.patch(`/api/v1/conversations/${id}`, { status });
      assert.equal(res.status, 200, res.text);
      closes.set(id, [...(closes.get(id) ?? []), clock.now()]);
    };
    steps.push({
      at: t0,
      run: async () => {
        customer = visitor(ctx, (await startSession(ctx, product.widget_key, { name: `Visitor ${i}` })).token);
        const res = await customer.post(widgetPath(product.widget_key, '/conversations'), { body: `Question ${i}`, ...(i % 3 === 0 && { type: 'ticket' }) });
        assert.equal(res.status, 201, res.text);
        id = res.body.data.id;
        conversationIds.push(id);
        assert.equal((await api.patch(`/api/v1/conversations/${id}`, { assignee_id: agent.id, ...(i % 4 === 0 && { tags: ['vip'] }) })).status, 200);
      },
    });
    if (i % 5 === 4) continue; // never answered, never closed
    let t = t0 + (5 + random(20)) * MINUTE;
    steps.push({ at: t, run: post('notes', 'Looking into it') });
    if (i % 7 === 3) {
      // Closed without a reply: the first response clock stops unanswered.
      steps.push({ at: t + (10 + random(200)) * MINUTE, run: close('dismissed') });
      continue;
    }
    t += (1 + random(i % 2 === 0 ? 150 : 600)) * MINUTE;
    steps.push({ at: t, run: post('messages', 'Here is how') });
    if (i % 3 !== 1) {
      t += (2 + random(60)) * MINUTE;
      steps.push({ at: t, run: contact('Still stuck') });
      t += (1 + random(90)) * MINUTE;
      steps.push({ at: t, run: post('messages', 'Try this') });
    }
    t += (5 + random(i % 2 === 0 ? 2000 : 400)) * MINUTE;
    steps.push({ at: t, run: close('resolved') });
    if (i % 6 === 2) {
      // A contact's message reopens it: the resolution clock starts again, and so does a response clock.
      t += (30 + random(300)) * MINUTE;
      steps.push({ at: t, run: contact('It broke again') });
      t += (3 + random(40)) * MINUTE;
      steps.push({ at: t, run: post('messages', 'Fixed for good') });
      t += (3 + random(40)) * MINUTE;
      steps.push({ at: t, run: close('resolved') });
    }
    if (i % 2 === 1 || i % 3 === 0) {
      const rating = 1 + random(5);
      t += (1 + random(30)) * MINUTE;
      steps.push({
        at: t,
        run: async () => {
          const res = await customer.request('PUT', widgetPath(product.widget_key, `/conversations/${id}/rating`), { body: { rating } });
          assert.equal(res.status, 200, res.text);
          ratings.set(id, { rating, at: clock.now() });
        },
      });
    }
  }
  steps.sort((x, y) => x.at - y.at);
  for (const step of steps) {
    clock.advance(step.at - Date.parse(clock.now()));
    // Breaches are recorded as the server's watcher would, before anything else happens.
    await ctx.services.slaBreaches.run();
    await step.run();
  }
  clock.advance(MINUTE);
  return {
    from: new Date(start).toISOString(), to: clock.now(), slaProductId: slaProduct.id, plainProductId: plainProduct.id,
    conversationIds, closes, ratings, agents, targets,
  };
}

// ---- the naive path ----

export interface NaiveClock {
  conversation_id: string;
  target: 'first_response' | 'next_response' | 'resolution';
  start: string;
  /** When it stopped, and whether by its rule (a reply; a close for resolution). */
  stop: string | null;
  answered: boolean;
  answeredBy: string | null;
  sla: boolean;
}

interface RawMessage {
  sender_type: string;
  sender_id: string;
  internal: boolean;
  created_at: string;
}

/** The clocks of a conversation, walked from its raw messages and its closes. */
export function naiveClocks(conversationId: string, messages: readonly RawMessage[], closes: readonly string[], sla: boolean): NaiveClock[] {
  const clocks: NaiveClock[] = [];
  const events = [
    ...messages.map((message) => ({ at: message.created_at, message })),
    ...closes.map((at) => ({ at, message: null })),
  ].sort((x, y) => Date.parse(x.at) - Date.parse(y.at) || (x.message ? -1 : 1));
  let closed = false;
  let responding: NaiveClock | null = null;
  let resolving: NaiveClock | null = null;
  for (const { at, message } of events) {
    if (message === null) {
      if (responding) Object.assign(responding, { stop: at, answered: false });
      if (resolving) Object.assign(resolving, { stop: at, answered: true });
      responding = resolving = null;
      closed = true;
      continue;
    }
    if (message.sender_type === 'contact') {
      if (closed) closed = false; // a contact's message reopens it first
      if (!responding) {
        const target = clocks.some((clock) => clock.target === 'first_response') ? 'next_response' : 'first_response';
        responding = { conversation_id: conversationId, target, start: at, stop: null, answered: false, answeredBy: null, sla };
        clocks.push(responding);
      }
      if (!resolving) {
        resolving = { conversation_id: conversationId, target: 'resolution', start: at, stop: null, answered: false, answeredBy: null, sla };
        clocks.push(resolving);
      }
    } else if (message.sender_type === 'agent' && !message.internal && responding) {
      Object.assign(responding, { stop: at, answered: true, answeredBy: message.sender_id });
      responding = null;
    }
  }
  return clocks;
}

/** What a report filters a conversation by, as the API shows it now. */
export interface NaiveConversation {
  product_id: string;
  type: string;
  source: string;
  tags: string[];
  assignee_id: string | null;
}

/** The clocks of every conversation played, from their messages as the API shows them, and each conversation's filter fields. */
export async function naiveClocksOf(api: Client, played: Played): Promise<{
  clocks: NaiveClock[]; messages: (RawMessage & { conversation_id: string })[]; assignees: Map<string, string | null>; conversations: Map<string, NaiveConversation>;
}> {
  const clocks: NaiveClock[] = [];
  const messages: (RawMessage & { conversation_id: string })[] = [];
  const assignees = new Map<string, string | null>();
  const conversations = new Map<string, NaiveConversation>();
  for (const id of played.conversationIds) {
    const res = await api.get(`/api/v1/conversations/${id}`);
    assert.equal(res.status, 200, res.text);
    const detail = res.body.data;
    assignees.set(id, detail.assignee_id);
    conversations.set(id, { product_id: detail.product_id, type: detail.type, source: detail.source, tags: detail.tags, assignee_id: detail.assignee_id });
    messages.push(...detail.messages.map((message: RawMessage) => ({ ...message, conversation_id: id })));
    clocks.push(...naiveClocks(id, detail.messages, played.closes.get(id) ?? [], detail.product_id === played.slaProductId));
  }
  return { clocks, messages, assignees, conversations };
}

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

/** Open seconds between two whole-minute instants in the office calendar, minute by minute. */
export function naiveOfficeSeconds(from: string, to: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: OFFICE_ZONE, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  let open = 0;
  for (let at = Date.parse(from); at < Date.parse(to); at += MINUTE) {
    const fields = Object.fromEntries(parts.formatToParts(at).map((part) => [part.type, part.value]));
    const minute = Number(fields.hour) * 60 + Number(fields.minute);
    if (!['Sat', 'Sun'].includes(fields.weekday!) && minute >= OFFICE_HOURS[0] && minute < OFFICE_HOURS[1]) open += 60;
  }
  return open;
}

/** The value a report reads of a naive clock. */
export const naiveValue = (clock: NaiveClock, businessHours: boolean): number =>
  businessHours ? naiveOfficeSeconds(clock.start, clock.stop!) : seconds(clock.start, clock.stop!);

/** count, nearest-rank median and p90, average to the millisecond. */
export function naiveDistribution(values: number[]) {
  if (values.length === 0) return { count: 0, median_seconds: null, p90_seconds: null, average_seconds: null };
  const sorted = [...values].sort((x, y) => x - y);
  const at = (p: number) => sorted[Math.ceil((p * sorted.length) / 100) - 1];
  return {
    count: sorted.length, median_seconds: at(50), p90_seconds: at(90),
    average_seconds: Math.round((sorted.reduce((x, y) => x + y, 0) / sorted.length) * 1000) / 1000,
  };
}

export const inWindow = (at: string | null, from: string, to: string) => at !== null && Date.parse(at) >= Date.parse(from) && Date.parse(at) < Date.parse(to);
