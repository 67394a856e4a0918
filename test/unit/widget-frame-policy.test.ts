// Who may frame the widget (its CSP frame-ancestors) and which parent may hand it an identity
// token: both read product.domain the same way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { frameAncestors, parentHostOf } from '../../src/http/widget/frame-page.js';
import { domainHost, originOnHost } from '../../src/lib/host-domain.js';

describe('product.domain as a host', () => {
  it('reads the host however the domain was typed', () => {
    for (const typed of ['acme.com', 'Acme.COM', 'https://acme.com/', 'http://acme.com:8080/path', 'acme.com:8443', '*.acme.com', 'acme.com.', ' acme.com ']) {
      assert.equal(domainHost(typed), 'acme.com', typed);
    }
    assert.equal(domainHost('bücher.example'), 'xn--bcher-kva.example');
    assert.equal(domainHost('localhost'), 'localhost');
  });

  it('names no host for text that is not one, so nothing can reach the CSP', () => {
    for (const typed of ['', '   ', 'acme.com; script-src *', "acme.com 'unsafe-inline'", 'a b', 'http://', '*']) {
      assert.equal(domainHost(typed), null, typed);
    }
  });

  it('matches the host and its subdomains, over http or https, on any port', () => {
    for (const origin of ['https://acme.com', 'http://acme.com:3000', 'https://app.acme.com', 'https://a.b.acme.com:8443']) {
      assert.ok(originOnHost(origin, 'acme.com'), origin);
    }
    for (const origin of ['https://notacme.com', 'https://acme.com.evil.test', 'null', 'file:///acme.com', 'ftp://acme.com']) {
      assert.ok(!originOnHost(origin, 'acme.com'), origin);
    }
  });
});

describe('frame-ancestors of the widget frame', () => {
  it('follows the domain: this server, the host and its subdomains, any scheme and port', () => {
    assert.equal(parentHostOf('https://Acme.com/'), 'acme.com');
    assert.equal(
      frameAncestors('acme.com'),
      "'self' http://acme.com:* https://acme.com:* http://*.acme.com:* https://*.acme.com:*",
    );
  });

  it('names an IP address without subdomains', () => {
    assert.equal(frameAncestors('127.0.0.1'), "'self' http://127.0.0.1:* https://127.0.0.1:*");
  });

  it('lets any page embed the widget without a domain, as the widget API then takes any origin', () => {
    assert.equal(parentHostOf(null), '*');
    assert.equal(parentHostOf(''), '*');
    assert.equal(frameAncestors('*'), '*');
  });

  it('fails closed on a domain that names no host: this server only', () => {
    assert.equal(parentHostOf('acme.com; script-src *'), '');
    assert.equal(frameAncestors(''), "'self'");
  });
});
