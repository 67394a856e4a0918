// Server-side request forgery protection for webhook URLs (docs/events.md): a URL must be http(s)
// and must not lead to loopback, private, link-local, metadata or other special-purpose addresses.
// Checked when an endpoint is created or its URL changed, and again at every attempt, where the
// connection goes to the very addresses that were checked (DNS rebinding cannot slip through).
import { lookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Resolves a host name to all its addresses (dns.lookup with `all`); injectable for tests. */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) => {
    lookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/** A URL the guard refuses; `message` says why, without anything secret in it. */
export class ForbiddenUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenUrlError';
  }
}

// The IANA special-purpose registries, IPv4 and IPv6, with what each range is.
const IPV4_RANGES: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.169.254', 32, 'cloud metadata'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
// Addresses that carry an IPv4 address (mapped, translated, NAT64, 6to4) are judged by that address
// first (embeddedIpv4); every other address of the IETF-reserved ::/8 (IPv4-compatible included) is refused.
const IPV6_RANGES: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 8, 'reserved'],
  ['64:ff9b:1::', 48, 'reserved'],
  ['100::', 64, 'reserved'],
  // IETF protocol assignments, Teredo (2001::/32) among them: its client address is hidden in the low bits.
  ['2001::', 23, 'reserved'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'reserved'],
  ['fd00:ec2::254', 128, 'cloud metadata'],
  ['fc00::', 7, 'private'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'reserved'],
  ['ff00::', 8, 'multicast'],
];

// One list per family: BlockList also matches an IPv4 address against IPv6 rules (as ::ffff:a.b.c.d), which ::/8 would catch.
const rangesOf = (table: [string, number, string][], type: 'ipv4' | 'ipv6') =>
  table.map(([network, prefix, reason]) => ({ reason, list: subnet(network, prefix, type) }));

function subnet(network: string, prefix: number, type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return list;
}

const RANGES = { ipv4: rangesOf(IPV4_RANGES, 'ipv4'), ipv6: rangesOf(IPV6_RANGES, 'ipv6') };

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted quad converted, a zone dropped). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
}

const dottedQuad = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

const allZero = (groups: number[]) => groups.every((group) => group === 0);

/**
 * The IPv4 address an IPv6 address stands for, or null: IPv4-mapped (::ffff:0:0/96), IPv4-translated
 * (::ffff:0:0:0/96, RFC 6145), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses reach, or are
 * taken as, the IPv4 address inside them, so they are as safe as that address.
 */
function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  const low = dottedQuad(groups[6], groups[7]);
  if (allZero(groups.slice(0, 5)) && groups[5] === 0xffff) return low;
  if (allZero(groups.slice(0, 4)) && groups[4] === 0xffff && groups[5] === 0) return low;
  if (groups[0] === 0x64 && groups[1] === 0xff9b && allZero(groups.slice(2, 6))) return low;
  if (groups[0] === 0x2002) return dottedQuad(groups[1], groups[2]);
  return null;
}

/** Why connecting to `address` (an IP literal) is not allowed, or null when it is a public address. */
export function forbiddenAddressReason(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  const inner = family === 6 ? embeddedIpv4(address) : null;
  if (inner !== null) return forbiddenAddressReason(inner);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return RANGES[type].find(({ list }) => list.check(address, type))?.reason ?? null;
}

export interface UrlGuardOptions {
  /** LOOPDESK_WEBHOOKS_ALLOW_PRIVATE: every address is allowed. */
  allowPrivate: boolean;
  resolve?: Resolve;
  /** How long `check` waits for DNS before it accepts the URL and leaves the check to the attempts. */
  checkTimeoutMs?: number;
}

/** Why `url` is not an acceptable webhook URL (scheme, form), or null; addresses are checked apart. */
export function urlFormProblem(url: URL): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (!url.hostname) return 'must name a host';
  return null;
}

/** The host of a URL as DNS and isIP know it: IPv6 literals without brackets, no trailing dot. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();

/** RFC 6761: `localhost` and names under it are loopback, whatever a resolver says. */
const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

const CHECK_TIMEOUT_MS = 3_000;

export function createUrlGuard({ allowPrivate, resolve = systemResolve, checkTimeoutMs = CHECK_TIMEOUT_MS }: UrlGuardOptions) {
  function refuseForbidden(host: string, addresses: readonly string[]): void {
    if (allowPrivate) return;
    for (const address of addresses) {
      const reason = forbiddenAddressReason(address);
      if (reason) {
        const shown = address === host ? address : `${host} (${address})`;
        throw new ForbiddenUrlError(`${shown} is a ${reason} address, which webhooks may not reach`);
      }
    }
  }

  /** The addresses `url` leads to, every one of them allowed; throws ForbiddenUrlError or the resolver's error. */
  async function addressesOf(url: URL): Promise<LookupAddress[]> {
    const problem = urlFormProblem(url);
    if (problem) throw new ForbiddenUrlError(problem);
    const host = hostOf(url);
    const family = isIP(host);
    if (family !== 0) {
      refuseForbidden(host, [host]);
      return [{ address: host, family }];
    }
    if (isLocalhostName(host) && !allowPrivate) throw new ForbiddenUrlError(`${host} is a loopback name, which webhooks may not reach`);
    const addresses = await resolve(host);
    refuseForbidden(host, addresses.map(({ address }) => address));
    return addresses;
  }

  return {
    addressesOf,

    /**
     * The check at creation and on a URL change: the form, an IP literal, and what the host
     * resolves to now. A host that does not resolve (yet), or not in time, is accepted: every
     * attempt checks again.
     */
    async check(url: URL): Promise<void> {
      // With private addresses allowed no address can be refused: only the URL's form is checked.
      if (allowPrivate) {
        const problem = urlFormProblem(url);
        if (problem) throw new ForbiddenUrlError(problem);
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const patience = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, checkTimeoutMs);
      });
      try {
        await Promise.race([addressesOf(url), patience]);
      } catch (error) {
        if (error instanceof ForbiddenUrlError) throw error;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type UrlGuard = ReturnType<typeof createUrlGuard>;

/** How long attempts reuse the checked addresses of a host name before resolving and checking it again. */
export const CHECKED_ADDRESSES_TTL_MS = 5_000;
/** Past this many host names, expired entries are dropped when a new one is added. */
const CACHE_PRUNE_AT = 1_000;

/**
 * `addressesOf` for attempts, remembering each host's checked addresses for `ttlMs`: a busy
 * endpoint costs one resolution and check per 5 s, not one per attempt (getaddrinfo runs on
 * libuv's four threads, shared with file and crypto work), and attempts that start together share
 * one lookup. Connections still go only to checked addresses (the attempt pins them); a name that
 * changes its answer is checked again within `ttlMs`. Failures and refusals are not remembered.
 */
export function checkedAddressCache(addressesOf: UrlGuard['addressesOf'], ttlMs = CHECKED_ADDRESSES_TTL_MS, now = () => performance.now()) {
  const cache = new Map<string, { until: number; addresses: Promise<LookupAddress[]> }>();
  return (url: URL): Promise<LookupAddress[]> => {
    const key = `${url.protocol}//${url.hostname}`;
    const hit = cache.get(key);
    if (hit && hit.until > now()) return hit.addresses;
    if (cache.size >= CACHE_PRUNE_AT) {
      for (const [name, entry] of cache) if (entry.until <= now()) cache.delete(name);
    }
    const addresses = addressesOf(url);
    cache.set(key, { until: now() + ttlMs, addresses });
    addresses.catch(() => {
      if (cache.get(key)?.addresses === addresses) cache.delete(key);
    });
    return addresses;
  };
}

/**
 * A `lookup` for http.request that answers with the addresses already checked, so the socket
 * connects to exactly those and the host name is never resolved a second time.
 */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = family === 0 ? [...addresses] : addresses.filter((address) => address.family === family);
    if (usable.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`${hostname} has no IPv${family} address`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
      return;
    }
    if (options.all) (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  };
}
