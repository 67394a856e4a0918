// product.domain as the host a widget may be embedded on (platform.md §1, "Origins"): the host and
// its subdomains, any scheme and port. Shared by the server (the frame's `frame-ancestors`) and the
// widget's frame (which parent may hand it an identity token), so both read a domain the same way.

/**
 * The lowercase host a `domain` names, whether it was typed as `acme.com`, `https://acme.com/`,
 * `acme.com:8080` or `*.acme.com`; null when it names no host (the caller fails closed).
 */
export function domainHost(domain: string): string | null {
  const bare = domain.trim().replace(/^\*\./, '');
  if (!bare) return null;
  try {
    const { hostname } = new URL(bare.includes('://') ? bare : `http://${bare}`);
    const host = hostname.replace(/\.$/, '').toLowerCase();
    // Letters, digits, hyphens and dots (IDNs arrive in punycode), or a bracketed IPv6 address:
    // nothing that could end a CSP source list.
    return /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/.test(host) ? host : null;
  } catch {
    return null;
  }
}

/** Whether an origin (`https://app.acme.com:8443`) is `host` or one of its subdomains, over http(s). */
export function originOnHost(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const name = url.hostname.toLowerCase();
    return name === host || name.endsWith(`.${host}`);
  } catch {
    return false;
  }
}
