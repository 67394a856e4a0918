// SSRF protection of webhook URLs at the API and at delivery time (docs/events.md): loopback,
// private, link-local and metadata addresses are refused unless LOOPDESK_WEBHOOKS_ALLOW_PRIVATE.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eventually, numberedEvents, recordEvents } from '../helpers/events.js';
import { describeEachDialect } from '../helpers/harness.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const INTERNAL_URLS = [
  'http://127.0.0.1:8080/hook', 'http://10.0.0.5/hook', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:8080/hook',
  'http://localhost:8080/hook', 'http://192.168.0.10/hook', 'http://[fd00:ec2::254]/', 'http://0.0.0.0/', 'http://[::ffff:127.0.0.1]/',
  // IPv6 forms of internal IPv4 addresses: translated (RFC 6145), NAT64, 6to4; and a Teredo address.
  'http://[::ffff:0:7f00:1]:8080/hook', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[2002:a00:1::]/', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
];

describeEachDialect('webhook URLs to internal addresses', (ctx) => {
  for (const url of INTERNAL_URLS) {
    it(`refuses ${url} on create and on PATCH (400, fields.url)`, async () => {
      const { a } = ctx();
      const created = await a.api.post('/api/v1/webhooks', { url, events: ['*'] });
      assert.equal(created.status, 400, created.text);
      assert.match(created.body.fields.url, /address|name/);
      const webhook = (await a.api.post('/api/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] })).body.data;
      const patched = await a.api.patch(`/api/v1/webhooks/${webhook.id}`, { url });
      assert.equal(patched.status, 400, patched.text);
      assert.ok(patched.body.fields.url);
      assert.equal((await a.api.get(`/api/v1/webhooks/${webhook.id}`)).body.data.url, 'https://hooks.example.com/x');
    });
  }

  it('accepts a public address', async () => {
    const res = await ctx().a.api.post('/api/v1/webhooks', { url: 'https://93.184.215.14/hook', events: ['*'] });
    assert.equal(res.status, 201, res.text);
  });
});

describeEachDialect('webhook URLs to internal addresses with LOOPDESK_WEBHOOKS_ALLOW_PRIVATE=1', (ctx) => {
  for (const url of INTERNAL_URLS) {
    it(`accepts ${url}`, async () => {
      const res = await ctx().a.api.post('/api/v1/webhooks', { url, events: ['*'] });
      assert.equal(res.status, 201, res.text);
    });
  }
}, { webhooks: { allowPrivate: true } });

describeEachDialect('delivery to an address that became internal', (ctx) => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  it('is refused at the attempt, sends nothing and says why in last_error', async () => {
    const context = ctx();
    const webhook = (await context.a.api.post('/api/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] })).body.data;
    // As if the name now led to the receiver on loopback: what the check at creation could not see.
    await context.database.db.updateTable('webhook_endpoints').set({ url: `${receiver.url}/internal` }).where('id', '=', webhook.id).execute();
    await recordEvents(context, numberedEvents(context.a.id, 1));
    context.services.webhookDispatcher.start();
    const [delivery] = await eventually(
      async () => (await context.a.api.get(`/api/v1/webhooks/${webhook.id}/deliveries`)).body.data,
      ([first]) => first?.attempts === 1,
      'attempted',
    );
    assert.equal(delivery.last_status_code, null);
    assert.equal(delivery.last_error, '127.0.0.1 is a loopback address, which webhooks may not reach');
    assert.equal(receiver.received.length, 0);
  });
}, { webhooks: { pollIntervalMs: 20, retryScheduleMs: [60_000] } });
