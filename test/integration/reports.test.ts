// Reports (docs/reports.md): the summary, time series and per-member figures of a played support
// history, each checked against a naive computation from the raw messages (test/helpers/
// report-scenario.ts), round the clock and in business hours; the CSV; `reports rebuild` writing
// the very rows live writing wrote; validation, isolation and read-only keys.
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertInvalid } from '../helpers/answers.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import {
  OFFICE, inWindow, naiveClocksOf, naiveDistribution, naiveValue, playScenario, type NaiveClock, type Played,
} from '../helpers/report-scenario.js';

const BASE = '/api/v1/reports';
const clock = manualClock('2026-11-20T06:00:00.000Z');

type Naive = Awaited<ReturnType<typeof naiveClocksOf>>;

const query = (fields: Record<string, string | boolean | undefined>) =>
  new URLSearchParams(Object.entries(fields).filter(([, value]) => value !== undefined).map(([key, value]) => [key, String(value)])).toString();

/** The summary as the naive path computes it over [from, to), of the conversations `kept` (all by default). */
function naiveSummary(played: Played, naive: Naive, from: string, to: string, businessHours: boolean, kept: (conversationId: string) => boolean = () => true) {
  const stopped = naive.clocks.filter((clock) => kept(clock.conversation_id) && inWindow(clock.stop, from, to));
  const measured = (target: NaiveClock['target']) =>
    naiveDistribution(stopped.filter((clock) => clock.target === target && clock.answered).map((clock) => naiveValue(clock, businessHours)));
  const judged = stopped.filter((clock) => clock.sla).map((clock) => {
    const due = Date.parse(clock.start) + played.targets[clock.target] * 1000;
    return Date.parse(clock.stop!) >= due ? 'missed' : clock.answered ? 'hit' : null;
  });
  const ratings = [...played.ratings].filter(([id, rating]) => kept(id) && inWindow(rating.at, from, to)).map(([, rating]) => rating);
  const hit = judged.filter((outcome) => outcome === 'hit').length;
  const missed = judged.filter((outcome) => outcome === 'missed').length;
  const positive = ratings.filter((rating) => rating.rating >= 4).length;
  const messages = naive.messages.filter((message) => kept(message.conversation_id) && inWindow(message.created_at, from, to));
  // A widget conversation is created with its first message (the messages are in order).
  const firstMessages = new Map([...naive.messages].reverse().filter((message) => kept(message.conversation_id)).map((message) => [message.conversation_id, message.created_at]));
  const created = [...firstMessages.values()].filter((at) => inWindow(at, from, to)).length;
  return {
    conversations_created: created,
    conversations_resolved: measured('resolution').count,
    messages_received: messages.filter((message) => message.sender_type === 'contact').length,
    messages_sent: messages.filter((message) => message.sender_type === 'agent' && !message.internal).length,
    first_response: measured('first_response'),
    next_response: measured('next_response'),
    resolution: measured('resolution'),
    csat: { responses: ratings.length, positive, score: ratings.length ? positive / ratings.length : null },
    sla: { applied: judged.length, hit, missed, hit_rate: hit + missed ? hit / (hit + missed) : null },
    // The played history has no help center visitors (report-self-service.test.ts counts them).
    self_service: { searches: 0, articles_viewed: 0, answers_shown: 0, self_served: 0, conversations_after_article: 0 },
  };
}

/** The local date (YYYY-MM-DD) of an instant in a zone, by Intl. */
const localDate = (at: string | number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(at));

describeEachDialect('Reports [ext]', (ctx) => {
  let played: Played;
  let naive: Naive;
  let context: TestContext;

  before(async () => {
    context = ctx();
    played = await playScenario(context, clock);
    naive = await naiveClocksOf(context.a.api, played);
  });

  const summaryOf = async (fields: Record<string, string | boolean | undefined>, key = context.a.key) => {
    const res = await context.client(key).get(`${BASE}/summary?${query(fields)}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };

  it('summary: every figure equals the naive computation from the raw messages', async () => {
    const { from, to } = played;
    const naiveFigures = naiveSummary(played, naive, from, to, false);
    assert.ok(naiveFigures.first_response.count > 5 && naiveFigures.next_response.count > 3 && naiveFigures.sla.missed > 0 && naiveFigures.sla.hit > 0);
    assert.deepEqual(await summaryOf({ from, to }), naiveFigures);
  });

  it('summary: business_hours=true counts in the default calendar where no SLA calendar applies', async () => {
    const { from, to } = played;
    const figures = await summaryOf({ from, to, business_hours: true });
    assert.deepEqual(figures, naiveSummary(played, naive, from, to, true));
    assert.ok(figures.resolution.median_seconds! < (await summaryOf({ from, to })).resolution.median_seconds!, 'nights and the weekend are not counted');
  });

  it('summary: a clock counts in the window where it stopped (a narrower window)', async () => {
    const from = new Date(Date.parse(played.from) + 24 * 3600_000).toISOString();
    const to = new Date(Date.parse(played.from) + 48 * 3600_000).toISOString();
    assert.deepEqual(await summaryOf({ from, to }), naiveSummary(played, naive, from, to, false));
  });

  it('summary: a window cut anywhere in a day counts as the naive path does (whole UTC days from the day counts, the ends from the rows)', async () => {
    const DAY = 24 * 3600_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const [start, end] = [Date.parse(played.from), Date.parse(played.to)];
    const firstMidnight = Math.ceil(start / DAY) * DAY;
    const lastMidnight = Math.floor(end / DAY) * DAY;
    assert.ok(lastMidnight - firstMidnight >= DAY, 'the played history spans a whole UTC day');
    // A message's own instant: a window ending there leaves it out, one starting there counts it.
    const contactAt = Date.parse(naive.messages.find((message) => Date.parse(message.created_at) > firstMidnight && message.sender_type === 'contact')!.created_at);
    const windows: [number, number][] = [
      [firstMidnight, lastMidnight], [firstMidnight - 1, lastMidnight + 1], [firstMidnight + 1, lastMidnight - 1],
      [start, firstMidnight], [firstMidnight, firstMidnight + DAY], [firstMidnight + 3600_000, firstMidnight + 7200_000],
      [start, contactAt], [contactAt, end], [firstMidnight - DAY, end + DAY],
    ];
    const [owner] = played.agents;
    for (const [from, to] of windows) {
      const window = { from: iso(from), to: iso(to) };
      assert.deepEqual(await summaryOf(window), naiveSummary(played, naive, window.from, window.to, false), JSON.stringify(window));
      assert.deepEqual(await summaryOf({ ...window, assignee_id: owner!.id, type: 'chat,ticket' }),
        naiveSummary(played, naive, window.from, window.to, false, (id) => naive.conversations.get(id)!.assignee_id === owner!.id), JSON.stringify(window));
    }
  });

  it('summary: filters by product, assignee (uuid, me, none), tag, type and source', async () => {
    const { from, to } = played;
    const onlySla = await summaryOf({ from, to, product_id: played.slaProductId });
    const slaClocks = naive.clocks.filter((clock) => clock.sla && inWindow(clock.stop, from, to) && clock.target === 'first_response' && clock.answered);
    assert.equal(onlySla.first_response.count, slaClocks.length);
    assert.equal(onlySla.conversations_created, played.conversationIds.length / 2);
    const [owner, bea] = played.agents;
    const mine = await summaryOf({ from, to, assignee_id: 'me' });
    assert.deepEqual(mine, await summaryOf({ from, to, assignee_id: owner!.id }));
    const theirs = await summaryOf({ from, to, assignee_id: bea!.id });
    assert.equal(mine.conversations_created + theirs.conversations_created, played.conversationIds.length);
    assert.equal((await summaryOf({ from, to, assignee_id: 'none' })).conversations_created, 0);
    const vip = await summaryOf({ from, to, tag: 'VIP' });
    assert.equal(vip.conversations_created, Math.ceil(played.conversationIds.length / 4));
    const tickets = await summaryOf({ from, to, type: 'ticket' });
    assert.equal(tickets.conversations_created, Math.ceil(played.conversationIds.length / 3));
    assert.equal((await summaryOf({ from, to, source: 'email' })).conversations_created, 0);
    assert.equal((await summaryOf({ from, to, source: 'chat,email' })).conversations_created, played.conversationIds.length);
  });

  it('summary: each filter narrows every figure as the naive path does, by the conversation\'s assignee now', async () => {
    const { from, to } = played;
    const [owner, bea] = played.agents;
    const field = (id: string) => naive.conversations.get(id)!;
    const cases = (assigneeOf: (id: string) => string | null) => [
      [{ product_id: played.slaProductId }, (id: string) => field(id).product_id === played.slaProductId],
      [{ product_id: played.plainProductId, type: 'ticket' }, (id: string) => field(id).product_id === played.plainProductId && field(id).type === 'ticket'],
      [{ tag: 'vip' }, (id: string) => field(id).tags.includes('vip')],
      [{ assignee_id: bea!.id }, (id: string) => assigneeOf(id) === bea!.id],
      [{ assignee_id: 'me', tag: 'vip' }, (id: string) => assigneeOf(id) === owner!.id && field(id).tags.includes('vip')],
      [{ source: 'chat', business_hours: true }, () => true],
    ] as const;
    const check = async (assigneeOf: (id: string) => string | null) => {
      for (const [filters, kept] of cases(assigneeOf)) {
        const businessHours = 'business_hours' in filters;
        assert.deepEqual(await summaryOf({ from, to, ...filters }), naiveSummary(played, naive, from, to, businessHours, kept), JSON.stringify(filters));
      }
    };
    await check((id) => field(id).assignee_id);
    // A conversation handed to another member moves, with its messages and clocks, to their figures.
    const moved = played.conversationIds.find((id) => field(id).assignee_id === owner!.id && naive.clocks.some((clock) => clock.conversation_id === id && clock.stop !== null))!;
    const handTo = async (assigneeId: string) => assert.equal((await context.a.api.patch(`/api/v1/conversations/${moved}`, { assignee_id: assigneeId })).status, 200);
    await handTo(bea!.id);
    try {
      await check((id) => (id === moved ? bea!.id : field(id).assignee_id));
    } finally {
      await handTo(owner!.id);
    }
  });

  it('timeseries: per local day in a zone, counts and medians as the naive path buckets them', async () => {
    const { from, to } = played;
    const timezone = 'America/New_York';
    const series = async (metric: string, extra: Record<string, string> = {}) => {
      const res = await context.a.api.get(`${BASE}/timeseries?${query({ from, to, metric, interval: 'day', timezone, ...extra })}`);
      assert.equal(res.status, 200, res.text);
      return res.body.data as { start: string; value: number | null }[];
    };
    const created = await series('conversations_created');
    assert.equal(localDate(created[0]!.start, timezone), localDate(from, timezone));
    for (const bucket of created) {
      assert.match(new Intl.DateTimeFormat('en-GB', { timeZone: timezone, timeStyle: 'short' }).format(new Date(bucket.start)), /^00:00$/, 'starts at local midnight');
    }
    const creations = naive.messages.filter((message) => message.sender_type === 'contact');
    const firstOf = new Map<string, string>();
    for (const message of creations) if (!firstOf.has(message.conversation_id)) firstOf.set(message.conversation_id, message.created_at);
    const perDay = (ats: string[]) => {
      const counts = new Map<string, number>();
      for (const at of ats) counts.set(localDate(at, timezone), (counts.get(localDate(at, timezone)) ?? 0) + 1);
      return counts;
    };
    const expectedCreated = perDay([...firstOf.values()]);
    assert.deepEqual(created.map((bucket) => bucket.value), created.map((bucket) => expectedCreated.get(localDate(bucket.start, timezone)) ?? 0));
    const medians = await series('first_response_median');
    const firstResponses = naive.clocks.filter((clock) => clock.target === 'first_response' && clock.answered);
    assert.deepEqual(medians.map((bucket) => bucket.value), medians.map((bucket) => naiveDistribution(
      firstResponses.filter((clock) => localDate(clock.stop!, timezone) === localDate(bucket.start, timezone)).map((clock) => naiveValue(clock, false)),
    ).median_seconds));
    const weeks = await series('csat_score', { interval: 'week' });
    for (const bucket of weeks) assert.equal(new Intl.DateTimeFormat('en-GB', { timeZone: timezone, weekday: 'short' }).format(new Date(bucket.start)), 'Mon');
    const rates = await series('sla_hit_rate', { interval: 'hour', timezone: 'Asia/Kolkata' });
    assert.equal(new Date(rates[0]!.start).getUTCMinutes(), 30, 'a local hour of a +05:30 zone');
    assert.ok(rates.some((bucket) => bucket.value === null) && rates.some((bucket) => bucket.value !== null));
  });

  it('agents: each member\'s replies, resolutions and first responses as the naive path counts them', async () => {
    const { from, to } = played;
    const res = await context.a.api.get(`${BASE}/agents?${query({ from, to })}`);
    assert.equal(res.status, 200, res.text);
    for (const agent of played.agents) {
      const row = res.body.data.find((entry: any) => entry.member_id === agent.id);
      assert.ok(row, agent.name);
      assert.equal(row.replies_sent, naive.messages.filter((message) => message.sender_id === agent.id && !message.internal).length);
      assert.equal(row.conversations_resolved, naive.clocks.filter((clock) =>
        clock.target === 'resolution' && clock.stop !== null && naive.assignees.get(clock.conversation_id) === agent.id).length);
      assert.deepEqual(row.first_response, naiveDistribution(naive.clocks
        .filter((clock) => clock.target === 'first_response' && clock.answered && clock.answeredBy === agent.id).map((clock) => naiveValue(clock, false))));
    }
  });

  it('conversations.csv: RFC 4180, a row per conversation created in the window, the clocks\' values', async () => {
    const { from, to } = played;
    const res = await context.a.api.get(`${BASE}/conversations.csv?${query({ from, to, product_id: played.slaProductId })}`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.match(String(res.headers['content-disposition']), /^attachment; filename="conversations.csv"$/);
    const lines = res.text.split('\r\n');
    assert.equal(lines.at(-1), '', 'every line ends with CRLF');
    assert.equal(lines[0], 'id,product,type,source,status,assignee,tags,created_at,first_response_seconds,resolution_seconds,rating,sla_status');
    const rows = lines.slice(1, -1).map((line) => line.split(','));
    assert.equal(rows.length, played.conversationIds.length / 2);
    for (const row of rows) {
      const clocks = naive.clocks.filter((clock) => clock.conversation_id === row[0]);
      const first = clocks.find((clock) => clock.target === 'first_response' && clock.answered);
      const resolution = clocks.filter((clock) => clock.target === 'resolution' && clock.stop !== null).at(-1);
      assert.equal(row[8], first ? String(naiveValue(first, false)) : '');
      assert.equal(row[9], resolution ? String(naiveValue(resolution, false)) : '');
      assert.equal(row[10], played.ratings.has(row[0]!) ? String(played.ratings.get(row[0]!)!.rating) : '');
    }
  });

  it('conversations.csv: quotes what needs it and neutralises formula cells; streams past a page', async () => {
    const { api } = ctx().b;
    const product = await createProduct(api, { name: '=HYPERLINK("http://evil")' });
    const from = clock.now();
    for (let i = 0; i < 501; i++) await importConversation(api, product.id, { title: `T${i}` });
    const tagged = await importConversation(api, product.id, { title: 'tagged' });
    assert.equal((await api.patch(`/api/v1/conversations/${tagged.id}`, { tags: ['-x', '@y'] })).status, 200);
    clock.advance(1000);
    const res = await api.get(`${BASE}/conversations.csv?${query({ from, to: clock.now() })}`);
    assert.equal(res.status, 200);
    const lines = res.text.split('\r\n').slice(1, -1);
    assert.equal(lines.length, 502);
    assert.equal(new Set(lines.map((line) => line.slice(0, 36))).size, 502, 'each conversation once across the pages');
    assert.ok(lines.every((line) => line.includes(`,"'=HYPERLINK(""http://evil"")",`)), lines[0]);
    assert.ok(lines.at(-1)!.includes(`,"'-x, @y",`), lines.at(-1));
  });

  it('reports rebuild writes the rows live writing wrote', async () => {
    const { db } = context.database;
    const rows = () => db.selectFrom('sla_clocks').selectAll().orderBy('id').execute();
    const live = await rows();
    assert.ok(live.filter((row) => row.value_seconds !== null && row.answered_by !== null).length > 10);
    // As clocks stopped before migration 0038 (or copied without their values) are left.
    await db.updateTable('sla_clocks').set({ value_seconds: null, business_seconds: null, answered_by: null }).execute();
    const report = await context.services.reportRebuild.rebuild();
    assert.deepEqual(await rows(), live);
    assert.equal(report.clocks, live.filter((row) => row.stopped_at !== null).length);
    assert.equal((await context.services.reportRebuild.rebuild()).changed, 0, 'a second run changes nothing');
  });

  it('reports rebuild counts the days as the writes counted them', async () => {
    const { db } = context.database;
    const { b } = context;
    const product = await createProduct(b.api, {});
    for (const [i, type] of (['chat', 'ticket', 'chat'] as const).entries()) {
      const conversation = await importConversation(b.api, product.id, { type, body: 'It fails' });
      clock.advance(20 * 3600_000); // the next day, at another hour
      for (const kind of ['messages', 'notes']) assert.equal((await b.api.post(`/api/v1/conversations/${conversation.id}/${kind}`, { body: 'Here is how' })).status, 201);
      if (i > 0) assert.equal((await b.api.patch(`/api/v1/conversations/${conversation.id}`, { assignee_id: b.owner.id })).status, 200);
      if (i > 1) assert.equal((await b.api.patch(`/api/v1/conversations/${conversation.id}`, { assignee_id: null })).status, 200);
    }
    // A move to another assignee leaves the former key's row at zero: no count, so left out here.
    const days = async () => (await db.selectFrom('report_days').selectAll().where('workspace_id', '=', b.id).where('product_id', '=', product.id)
      .orderBy(['day', 'type', 'source', 'assignee_key', 'slot']).execute())
      .filter((row) => row.conversations_created !== 0 || row.messages_received !== 0 || row.messages_sent !== 0);
    const written = await days();
    const sum = (column: 'conversations_created' | 'messages_received' | 'messages_sent') => written.reduce((total, row) => total + row[column], 0);
    assert.deepEqual([sum('conversations_created'), sum('messages_received'), sum('messages_sent')], [3, 3, 3]);
    assert.ok(written.some((row) => row.assignee_key === '') && written.some((row) => row.assignee_key === b.owner.id));
    await db.deleteFrom('report_days').where('workspace_id', '=', b.id).execute();
    const report = await context.services.reportRebuild.rebuild();
    assert.deepEqual(await days(), written);
    const everyWorkspace = await db.selectFrom('report_days').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    assert.equal(report.day_rows, Number(everyWorkspace.n));
  });

  it('answers every member and key of the workspace, read-only keys included; null figures over nothing', async () => {
    const { a } = context;
    const empty = { from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' };
    for (const key of [a.readOnlyKey, a.memberlessKey]) {
      const figures = await summaryOf(empty, key);
      assert.deepEqual(figures.first_response, { count: 0, median_seconds: null, p90_seconds: null, average_seconds: null });
      assert.deepEqual(figures.csat, { responses: 0, positive: 0, score: null });
      assert.deepEqual(figures.sla, { applied: 0, hit: 0, missed: 0, hit_rate: null });
    }
    const res = await context.client(a.readOnlyKey).get(`${BASE}/timeseries?${query({ ...empty, metric: 'conversations_created', interval: 'hour' })}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.data.length, 24);
    assert.ok(res.body.data.every((bucket: any) => bucket.value === 0));
    assert.equal((await context.client(a.revokedKey).get(`${BASE}/summary`)).status, 401);
    const instant = { from: played.from, to: played.from };
    assert.equal((await summaryOf(instant)).conversations_created, 0, 'from = to is an empty window');
    assert.deepEqual((await context.a.api.get(`${BASE}/timeseries?${query({ ...instant, metric: 'csat_score' })}`)).body, { data: [] });
  });

  it('keeps each workspace\'s figures its own', async () => {
    const { from, to } = played;
    const other = await summaryOf({ from, to }, context.b.key);
    assert.equal(other.first_response.count, 0);
    assert.equal((await summaryOf({ from, to, product_id: played.slaProductId }, context.b.key)).conversations_created, 0);
    const agents = (await context.b.api.get(`${BASE}/agents?${query({ from, to })}`)).body.data;
    assert.deepEqual(agents.map((row: any) => row.member_id), [context.b.owner.id]);
    const csv = await context.b.api.get(`${BASE}/conversations.csv?${query({ from, to, product_id: played.slaProductId })}`);
    assert.equal(csv.text.split('\r\n').length, 2, 'a header alone');
  });

  it('the default window is the 7 days before now', async () => {
    const figures = await summaryOf({});
    assert.deepEqual(figures, await summaryOf({ from: new Date(Date.parse(clock.now()) - 7 * 86_400_000).toISOString(), to: clock.now() }));
  });

  for (const [what, path, fields] of [
    ['from after to', 'summary?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z', ['from']],
    ['a from that is no instant', 'summary?from=yesterday', ['from']],
    ['a malformed product_id', 'summary?product_id=nope', ['product_id']],
    ['an unknown type and source together', 'agents?type=letter&source=fax', ['type', 'source']],
    ['an assignee_id that is no member reference', 'summary?assignee_id=bob', ['assignee_id']],
    ['a business_hours that is no boolean', 'summary?business_hours=maybe', ['business_hours']],
    ['an unknown metric', 'timeseries?metric=happiness', ['metric']],
    ['a missing metric', 'timeseries', ['metric']],
    ['an unknown interval', 'timeseries?metric=csat_score&interval=month', ['interval']],
    ['an unknown time zone', 'timeseries?metric=csat_score&timezone=Mars/Olympus', ['timezone']],
    ['more than 1000 buckets', 'timeseries?metric=csat_score&interval=hour&from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', ['interval']],
    ['a bad filter of the CSV', 'conversations.csv?assignee_id=x', ['assignee_id']],
  ] as const) {
    it(`answers 400 for ${what}`, async () => {
      const res = await context.a.api.get(`${BASE}/${path}`);
      for (const field of fields) assertInvalid(res, field);
    });
  }

  it('answers 400 for assignee_id=me with a key that has no member', async () => {
    assertInvalid(await context.client(context.a.memberlessKey).get(`${BASE}/summary?assignee_id=me`), 'assignee_id');
  });
}, { clock, defaultCalendar: OFFICE });
