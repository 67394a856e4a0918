import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkedAddressCache, createUrlGuard, forbiddenAddressReason, ForbiddenUrlError, type Resolve } from '../../src/events/ssrf.js';
import { createWebhookSender } from '../../src/events/webhook-sender.js';
import { startReceiver, verified, type Receiver } from '../helpers/webhook-receiver.js';

/** A resolver answering from a table, as DNS would (ENOTFOUND for the rest). */
const fakeDns = (table: Record<string, string[]>): Resolve => async (hostname) => {
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('forbiddenAddressReason', () => {
  const forbidden: [string, string][] = [
    ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['::1', 'loopback'], ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'], ['fd12::1', 'private'],
    ['169.254.169.254', 'cloud metadata'], ['fd00:ec2::254', 'cloud metadata'], ['169.254.1.1', 'link-local'], ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'], ['::', 'unspecified'], ['100.64.0.1', 'shared (carrier-grade NAT)'], ['100.100.100.200', 'shared (carrier-grade NAT)'],
    ['192.0.2.1', 'documentation'], ['2001:db8::1', 'documentation'], ['198.18.0.1', 'reserved'], ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'], ['224.0.0.1', 'multicast'], ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'], ['64:ff9b::a9fe:a9fe', 'cloud metadata'], ['2002:7f00:1::', 'loopback'], ['::7f00:1', 'reserved'],
    // IPv6 forms that carry an IPv4 address: mapped, translated (RFC 6145), NAT64, 6to4; and the other special ranges.
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'], ['::ffff:0:7f00:1', 'loopback'], ['::ffff:0:127.0.0.1', 'loopback'], ['::ffff:0:a00:5', 'private'],
    ['::ffff:0:a9fe:a9fe', 'cloud metadata'], ['64:ff9b::7f00:1', 'loopback'], ['64:ff9b::192.168.0.1', 'private'], ['64:ff9b:1::808:808', 'reserved'],
    ['2002:c0a8:101::1', 'private'], ['2002:a9fe:a9fe::', 'cloud metadata'], ['2001::1', 'reserved'], ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['::a00:1', 'reserved'], ['::127.0.0.1', 'reserved'], ['::2', 'reserved'], ['100::1', 'reserved'], ['3fff::1', 'documentation'],
    ['5f00::1', 'reserved'], ['fec0::1', 'reserved'], ['fe80::1%eth0', 'link-local'], ['fc00::1', 'private'], ['ff05::2', 'multicast'],
  ];
  for (const [address, reason] of forbidden) {
    it(`refuses ${address} (${reason})`, () => assert.equal(forbiddenAddressReason(address), reason));
  }

  for (const address of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '64:ff9b::808:808', '::ffff:8.8.8.8',
    '::ffff:0:808:808', '2002:808:808::1', '2a00:1450:4001::200e']) {
    it(`allows the public address ${address}`, () => assert.equal(forbiddenAddressReason(address), null));
  }
});

describe('the URL guard', () => {
  const dns = fakeDns({ 'public.test': ['93.184.215.14'], 'inside.test': ['10.0.0.7'], 'mixed.test': ['93.184.215.14', '127.0.0.1'] });
  const guard = createUrlGuard({ allowPrivate: false, resolve: dns });

  const refused: [string, RegExp][] = [
    ['http://127.0.0.1/hook', /127\.0\.0\.1 is a loopback address/],
    ['http://10.0.0.1/hook', /private/],
    ['http://169.254.169.254/latest/meta-data', /cloud metadata/],
    ['http://[::1]:8080/hook', /loopback/],
    ['http://[::ffff:7f00:1]/', /loopback/],
    ['http://[::ffff:0:7f00:1]/', /::ffff:0:7f00:1 is a loopback address/],
    ['http://2130706433/', /loopback/],
    ['http://0x7f.1/', /loopback/],
    ['http://localhost:3000/hook', /localhost is a loopback name/],
    ['http://LOCALHOST./hook', /loopback name/],
    ['http://api.localhost/hook', /loopback name/],
    ['https://inside.test/hook', /inside\.test \(10\.0\.0\.7\) is a private address/],
    ['https://mixed.test/hook', /mixed\.test \(127\.0\.0\.1\) is a loopback address/],
    ['ftp://public.test/hook', /http:\/\/ or https:\/\//],
    ['file:///etc/passwd', /http:\/\/ or https:\/\//],
  ];
  for (const [url, message] of refused) {
    it(`refuses ${url}`, async () => {
      await assert.rejects(guard.check(new URL(url)), (error: Error) => error instanceof ForbiddenUrlError && message.test(error.message));
    });
  }

  it('accepts a public address and a host that resolves to one', async () => {
    await guard.check(new URL('https://93.184.215.14/hook'));
    assert.deepEqual(await guard.addressesOf(new URL('https://public.test/hook')), [{ address: '93.184.215.14', family: 4 }]);
  });

  it('accepts at creation a host that does not resolve, and refuses to deliver to it', async () => {
    await guard.check(new URL('https://nowhere.test/hook'));
    await assert.rejects(guard.addressesOf(new URL('https://nowhere.test/hook')), { code: 'ENOTFOUND' });
  });

  it('does not wait long for DNS at creation', async () => {
    const slow = createUrlGuard({ allowPrivate: false, resolve: () => new Promise(() => {}), checkTimeoutMs: 10 });
    await slow.check(new URL('https://slow.test/hook'));
  });

  it('allows every address with allowPrivate', async () => {
    const open = createUrlGuard({ allowPrivate: true, resolve: dns });
    for (const url of ['http://127.0.0.1/', 'http://localhost/', 'https://inside.test/', 'http://169.254.169.254/']) await open.check(new URL(url));
    await assert.rejects(open.check(new URL('ftp://public.test/')), ForbiddenUrlError);
  });
});

describe('the checked-address cache of attempts', () => {
  /** A resolver that answers each name from a mutable table and counts its lookups. */
  function countingDns(table: Record<string, string>) {
    const counted = { lookups: 0, table };
    const resolve: Resolve = async (hostname) => {
      counted.lookups++;
      const address = table[hostname];
      if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return [{ address, family: 4 }];
    };
    return { counted, guard: createUrlGuard({ allowPrivate: false, resolve }) };
  }

  it('resolves a host once per TTL, attempts starting together sharing the lookup', async () => {
    const { counted, guard } = countingDns({ 'public.test': '93.184.215.14' });
    let clock = 0;
    const addressesOf = checkedAddressCache(guard.addressesOf, 5_000, () => clock);
    const url = new URL('https://public.test/hook');
    await Promise.all([addressesOf(url), addressesOf(url), addressesOf(new URL('https://public.test/other'))]);
    clock = 4_999;
    assert.deepEqual(await addressesOf(url), [{ address: '93.184.215.14', family: 4 }]);
    assert.equal(counted.lookups, 1);
    clock = 5_000;
    await addressesOf(url);
    assert.equal(counted.lookups, 2);
  });

  it('checks a changed answer again once the TTL is over, and refuses it (rebinding)', async () => {
    const { counted, guard } = countingDns({ 'rebind.test': '93.184.215.14' });
    let clock = 0;
    const addressesOf = checkedAddressCache(guard.addressesOf, 5_000, () => clock);
    const url = new URL('https://rebind.test/hook');
    await addressesOf(url);
    counted.table['rebind.test'] = '127.0.0.1';
    clock = 5_000;
    await assert.rejects(addressesOf(url), /rebind\.test \(127\.0\.0\.1\) is a loopback address/);
  });

  it('remembers neither failures nor refusals', async () => {
    const { counted, guard } = countingDns({ 'inside.test': '10.0.0.7' });
    const addressesOf = checkedAddressCache(guard.addressesOf, 5_000, () => 0);
    await assert.rejects(addressesOf(new URL('https://nowhere.test/')), { code: 'ENOTFOUND' });
    await assert.rejects(addressesOf(new URL('https://nowhere.test/')), { code: 'ENOTFOUND' });
    await assert.rejects(addressesOf(new URL('https://inside.test/')), ForbiddenUrlError);
    await assert.rejects(addressesOf(new URL('https://inside.test/')), ForbiddenUrlError);
    assert.equal(counted.lookups, 4);
  });
});

describe('the sender at attempt time', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const request = (url: string, id: string) => ({ url, secrets: [secret], id, timestamp: Math.floor(Date.now() / 1000), body: '{"type":"x"}' });

  it('connects to the address it checked, never resolving the name again', async () => {
    // The system resolver does not know receiver.test: the request can only reach the receiver through the checked address.
    const guard = createUrlGuard({ allowPrivate: true, resolve: fakeDns({ 'receiver.test': ['127.0.0.1'] }) });
    const sender = createWebhookSender({ guard, timeoutMs: 5_000, maxSockets: 2 });
    const port = new URL(receiver.url).port;
    const result = await sender.send(request(`http://receiver.test:${port}/pinned`, 'pinned')).result;
    sender.close();
    assert.deepEqual(result, { ok: true, statusCode: 204, error: null });
    const arrived = receiver.received.find((r) => r.path === '/pinned')!;
    assert.equal(arrived.headers.host, `receiver.test:${port}`);
    assert.equal(verified(secret, arrived).type, 'x');
  });

  it('refuses a name that now resolves to a forbidden address (DNS rebinding), sending nothing', async () => {
    let answers = 0;
    const rebinding: Resolve = async () => [{ address: answers++ === 0 ? '93.184.215.14' : '127.0.0.1', family: 4 }];
    const guard = createUrlGuard({ allowPrivate: false, resolve: rebinding });
    const port = new URL(receiver.url).port;
    await guard.check(new URL(`http://rebind.test:${port}/`));
    const sender = createWebhookSender({ guard, timeoutMs: 5_000, maxSockets: 2 });
    const before = receiver.received.length;
    const result = await sender.send(request(`http://rebind.test:${port}/rebound`, 'rebound')).result;
    sender.close();
    assert.deepEqual(result, {
      ok: false, statusCode: null, error: 'rebind.test (127.0.0.1) is a loopback address, which webhooks may not reach',
    });
    assert.equal(receiver.received.length, before);
  });
});
