// Who may frame the widget (its CSP frame-ancestors) and which parent may hand it an identity
// token: both read product.domain as the widget API's origin check does (src/lib/host-domain.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { frameAncestors, parentHostOf } from '../../src/http/widget/frame-page.js';
import { originMatchesDomain } from '../../src/lib/host-domain.js';

describe('frame-ancestors of the widget frame', () => {
  it('follows the domain however it was typed: this server, the host and its subdomains, any scheme and port', () => {
    for (const typed of ['acme.com', 'Acme.COM', 'https://acme.com/', 'http://acme.com:8080/path', 'acme.com:8443', 'acme.com.']) {
      assert.equal(parentHostOf(typed), 'acme.com', typed);
    }
    assert.equal(
      frameAncestors('acme.com'),
      "'self' http://acme.com:* https://acme.com:* http://*.acme.com:* https://*.acme.com:*",
    );
  });

  it('names an IP address without subdomains', () => {
    assert.equal(parentHostOf('127.0.0.1:3000'), '127.0.0.1');
    assert.equal(frameAncestors('127.0.0.1'), "'self' http://127.0.0.1:* https://127.0.0.1:*");
  });

  it('lets any page embed the widget without a domain, as the widget API then takes any origin', () => {
    assert.equal(parentHostOf(null), '*');
    assert.equal(frameAncestors('*'), '*');
  });

  it('fails closed, to this server only, on a domain no CSP source can name (the API refuses its origins too)', () => {
    for (const typed of ['', '  ', '*.acme.com', 'acme.com; script-src *', "acme.com 'unsafe-inline'", 'a b']) {
      assert.equal(parentHostOf(typed), '', typed);
      if (typed.trim()) assert.ok(!originMatchesDomain('https://app.acme.com', typed), typed);
    }
    assert.equal(frameAncestors(''), "'self'");
  });

  it('takes a parent of the host or its subdomains, on any port, and no other', () => {
    for (const origin of ['https://acme.com', 'http://acme.com:3000', 'https://app.acme.com', 'https://a.b.acme.com:8443']) {
      assert.ok(originMatchesDomain(origin, 'acme.com'), origin);
    }
    for (const origin of ['https://notacme.com', 'https://acme.com.evil.test', 'null']) {
      assert.ok(!originMatchesDomain(origin, 'acme.com'), origin);
    }
  });
});
