// GET /metrics: Prometheus's text format, served only to the bearer of LOOPDESK_METRICS_TOKEN
// (anyone else, and every request when no token is set, gets the 404 of an unknown path). The
// scrape is parsed here: the documented families are there, named by Prometheus's conventions,
// and a request is counted under its route template, never under an id.
import assert from 'node:assert/strict';
import { get, type IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { eventually } from '../helpers/events.js';
import { createIssue, createIssueMaybe, createProduct, importConversation } from '../helpers/factories.js';
import { createTestContext, describeEachDialect, type Client } from '../helpers/harness.js';

const TOKEN = 'metrics-token-for-tests';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The exposition format, version 0.0.4: `# TYPE name type` lines and `name{label="value",…} value` samples. */
function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      types.set(type[1], type[2]);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(sample, `a sample line: ${line}`);
    const labels = Object.fromEntries([...(sample[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, name, value]) => [name, value]));
    samples.push({ name: sample[1], labels, value: Number(sample[3]) });
  }
  return { types, samples };
}

const UNKNOWN_PATH_ANSWER = { error_code: 'not_found', detail: 'no route for GET /metrics' };

async function scrape(client: Client) {
  const res = await client.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return parseExposition(res.text);
}

describeEachDialect('GET /metrics', (ctx, dialect) => {
  it('answers 404 as an unknown path does, without the token or with another one', async () => {
    const { client } = ctx();
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await client(null).get('/metrics', { headers: authorization ? { authorization } : {} });
      assert.equal(res.status, 404, String(authorization));
      assert.deepEqual(res.body, UNKNOWN_PATH_ANSWER);
    }
  });

  it('serves every documented family by Prometheus\'s conventions, and counts requests by route template and status, never by id', async () => {
    const { a, client } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id);
    assert.equal((await a.api.get(`/api/v1/issues/${issue.id}`)).status, 200);
    assert.equal((await a.api.get(`/api/v1/issues/${issue.id}`)).status, 200);
    assert.equal((await a.api.get('/api/v1/issues/00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await a.api.get(`/no/such/path/${issue.id}`)).status, 404);
    await createIssueMaybe(a.api, product.id, { title: 'Export crashes on large files' });

    const { types, samples } = await scrape(client(null));
    const expectedTypes: Record<string, string> = {
      loopdesk_http_requests_total: 'counter',
      loopdesk_http_request_duration_seconds: 'histogram',
      loopdesk_event_stream_connections: 'gauge',
      loopdesk_http_requests_in_flight: 'gauge',
      loopdesk_outbox_backlog_events: 'gauge',
      loopdesk_outbox_oldest_age_seconds: 'gauge',
      loopdesk_webhook_deliveries: 'gauge',
      loopdesk_mail_deliveries: 'gauge',
      loopdesk_dedup_duration_seconds: 'histogram',
      loopdesk_summary_duration_seconds: 'histogram',
      process_cpu_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
      nodejs_eventloop_lag_seconds: 'gauge',
    };
    for (const [name, type] of Object.entries(expectedTypes)) assert.equal(types.get(name), type, name);

    const requests = (labels: Record<string, string>) =>
      samples.find((s) => s.name === 'loopdesk_http_requests_total' && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    assert.equal(requests({ method: 'GET', route: '/api/v1/issues/:id', status: '200' }), 2);
    assert.equal(requests({ method: 'GET', route: '/api/v1/issues/:id', status: '404' }), 1);
    assert.equal(requests({ method: 'GET', route: 'unmatched', status: '404' }), 1);
    const count = samples.find((s) => s.name === 'loopdesk_http_request_duration_seconds_count' && s.labels.route === '/api/v1/issues/:id' && s.labels.status === '200');
    assert.equal(count?.value, 2);
    assert.ok(samples.some((s) => s.name === 'loopdesk_http_request_duration_seconds_bucket' && s.labels.le === '+Inf'));
    for (const sample of samples) assert.doesNotMatch(JSON.stringify(sample.labels), UUID, `${sample.name} has an id in a label`);

    const value = (name: string) => samples.find((s) => s.name === name)?.value;
    assert.equal(value('loopdesk_dedup_duration_seconds_count'), 1);
    assert.equal(samples.filter((s) => s.name.startsWith('loopdesk_summary_duration_seconds')).length, 0, 'no summary yet');
    assert.ok(value('loopdesk_outbox_backlog_events')! > 0, 'the writes recorded events nobody fanned out (no dispatcher runs here)');
    assert.ok(value('loopdesk_outbox_oldest_age_seconds')! >= 0);
    assert.equal(value('loopdesk_event_stream_connections'), 0);
    for (const name of types.keys()) {
      if (types.get(name) === 'counter') assert.match(name, /_total$/, `${name}: a counter ends in _total`);
      assert.doesNotMatch(name, /_(ms|milliseconds|kb|mb)(_|$)/, `${name}: base units`);
    }
  });

  it('reports every delivery status from the first scrape, 0 until a delivery has it', async () => {
    const { client } = ctx();
    const { samples } = await scrape(client(null));
    const statuses = (name: string) => samples.filter((s) => s.name === name).map((s) => [s.labels.status, s.value]).sort();
    assert.deepEqual(statuses('loopdesk_webhook_deliveries'), [['failed', 0], ['pending', 0], ['succeeded', 0]]);
    assert.deepEqual(statuses('loopdesk_mail_deliveries'), [['done', 0], ['failed', 0], ['pending', 0]]);
  });

  it('serves the pool families where there is a pool (PostgreSQL), and none of them on SQLite', async () => {
    const { client } = ctx();
    const { types, samples } = await scrape(client(null));
    const families = ['loopdesk_db_pool_connections', 'loopdesk_db_pool_waiting_queries'];
    const pooled = dialect === 'postgres';
    for (const name of families) assert.equal(types.get(name), pooled ? 'gauge' : undefined, name);
    assert.deepEqual(samples.filter((s) => families.includes(s.name)).map((s) => s.labels.state ?? s.name).sort(),
      pooled ? ['busy', 'idle', 'loopdesk_db_pool_waiting_queries'] : []);
  });

  it('counts the requests in flight over HTTP, until each is answered or abandoned', async () => {
    const { app, a } = ctx();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const inFlight = async () => {
      const response = await fetch(`${address}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      return parseExposition(await response.text()).samples.find((s) => s.name === 'loopdesk_http_requests_in_flight')?.value;
    };
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${address}/healthz`)).status, 200);
    assert.equal(await inFlight(), 1, 'the scrape itself: the answered requests have left');
    // Its own connection (no keep-alive agent), which the client then drops mid-stream.
    const stream = get(`${address}/api/v1/events/stream`, { headers: { authorization: `Bearer ${a.key}` }, agent: false });
    const opened = await new Promise<IncomingMessage>((resolve, reject) => stream.once('response', resolve).once('error', reject));
    assert.equal(opened.statusCode, 200);
    assert.equal(await inFlight(), 2, 'an open event stream is in flight');
    stream.destroy();
    await eventually(inFlight, (count) => count === 1, 'the abandoned stream has left');
  });

  it('observes the time from a contact\'s message to its conversation\'s summary, by writer', async () => {
    const { a, client, services } = ctx();
    services.webhookDispatcher.start();
    const product = await createProduct(a.api);
    await importConversation(a.api, product.id, { body: 'The export button does nothing. No file is downloaded at all.' });
    const summaryCount = (samples: Sample[]) => samples.find((s) => s.name === 'loopdesk_summary_duration_seconds_count');
    const { samples } = await eventually(() => scrape(client(null)), ({ samples }) => summaryCount(samples) !== undefined, 'a summary observed');
    assert.deepEqual([summaryCount(samples)!.labels.writer, summaryCount(samples)!.value], ['extractive', 1]);
  });
}, { metricsToken: TOKEN, summaries: { debounceMs: 50 }, webhooks: { pollIntervalMs: 20 } });

describe('GET /metrics without LOOPDESK_METRICS_TOKEN', () => {
  it('is an unknown path, even to a request bearing a token', async (t) => {
    const context = await createTestContext('sqlite');
    t.after(() => context.close());
    const res = await context.client(null).get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, UNKNOWN_PATH_ANSWER);
  });
});
