// product.domain as the host a widget may be used from (docs/widget.md, "Origins"): the host and
// its subdomains, any scheme and port. A leaf module with no imports, shared by the widget API's
// origin check, the frame's CSP frame-ancestors, and the frame itself (in the browser), which
// only takes an identity token from a parent page this rule allows.

/**
 * The host name a product's `domain` names, however it was typed: `Example.com`,
 * `https://example.com/`, `example.com:8443` and `example.com.` all name `example.com`.
 */
export function domainHost(domain: string): string {
  const bare = domain.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/[/?#].*$/, '');
  return bare.replace(/:\d*$/, '').replace(/\.+$/, '');
}

/**
 * Whether a page at `origin` (an Origin header) may use the widget of a product with `domain`:
 * the domain's host or one of its subdomains, any scheme and port. `null` and other opaque
 * origins name no host, so they never match.
 */
export function originMatchesDomain(origin: string, domain: string): boolean {
  const allowed = domainHost(domain);
  let host: string;
  try {
    host = new URL(origin).hostname.toLowerCase().replace(/\.+$/, '');
  } catch {
    return false;
  }
  if (!host || !allowed) return false;
  return host === allowed || host.endsWith(`.${allowed}`);
}
