// The embeddable widget's pages (docs/widget.md): widget.js for host pages, the frame with its
// CSP frame-ancestors following product.domain, the frame's assets, and the demo pages.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { loadWidgetBuild, WidgetBuildError } from '../../src/http/widget/widget-build.js';
import { createProduct } from '../helpers/factories.js';
import { describeEachDialect } from '../helpers/harness.js';

const policyOf = (headers: Record<string, unknown>) => String(headers['content-security-policy']);
const frameAncestorsOf = (headers: Record<string, unknown>) => /frame-ancestors ([^;]+)/.exec(policyOf(headers))?.[1];

describeEachDialect('the embeddable widget', (ctx) => {
  const anonymous = () => ctx().client(null);

  it('serves widget.js publicly, cached for 5 minutes, at most 30 KB gzipped', async () => {
    const res = await anonymous().get('/widget.js');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
    assert.ok(gzipSync(res.text).length <= 30 * 1024);
    assert.match(res.text, /data-loopdesk-widget|loopdeskWidget/);
    const again = await anonymous().get('/widget.js', { headers: { 'if-none-match': String(res.headers.etag) } });
    assert.equal(again.status, 304);
  });

  it('serves the frame of a product with its script, its styles and its key, and their files for good', async () => {
    const product = await createProduct(ctx().a.api, { name: 'Acme <b>"Support"</b>' });
    const res = await anonymous().get(`/widget/frame/${product.widget_key}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(res.text, new RegExp(`data-widget-key="${product.widget_key}"`));
    assert.match(res.text, /<title>Acme &lt;b&gt;&quot;Support&quot;&lt;\/b&gt; support<\/title>/);
    const policy = policyOf(res.headers);
    for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "worker-src 'self'"]) assert.ok(policy.includes(directive), directive);
    const assets = [...res.text.matchAll(/(?:src|href)="\.\.\/(assets\/[^"]+)"/g)].map((match) => match[1]);
    assert.ok(assets.some((file) => file.endsWith('.js')) && assets.some((file) => file.endsWith('.css')), assets.join());
    for (const file of assets) {
      const asset = await anonymous().get(`/widget/${file}`);
      assert.equal(asset.status, 200, file);
      assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    }
  });

  it('lets any page frame a product without a domain', async () => {
    const product = await createProduct(ctx().a.api);
    const res = await anonymous().get(`/widget/frame/${product.widget_key}`);
    assert.equal(frameAncestorsOf(res.headers), '*');
    assert.match(res.text, /data-parent-host="\*"/);
  });

  it('lets only this server and the domain\'s host and subdomains frame a product with a domain', async () => {
    const product = await createProduct(ctx().a.api, { domain: 'https://Acme.example/' });
    const res = await anonymous().get(`/widget/frame/${product.widget_key}`);
    assert.equal(frameAncestorsOf(res.headers), "'self' http://acme.example:* https://acme.example:* http://*.acme.example:* https://*.acme.example:*");
    assert.match(res.text, /data-parent-host="acme\.example"/);
  });

  it('lets only this server frame a product whose domain names no host', async () => {
    const product = await createProduct(ctx().a.api, { domain: "acme.example; script-src 'unsafe-inline'" });
    const res = await anonymous().get(`/widget/frame/${product.widget_key}`);
    assert.equal(frameAncestorsOf(res.headers), "'self'");
    assert.doesNotMatch(policyOf(res.headers), /unsafe-inline/);
  });

  it('answers an unknown key with a 404 page a host page can show', async () => {
    for (const key of ['wk_doesnotexist0000000000', 'not-a-key', '%3Cscript%3E']) {
      const res = await anonymous().get(`/widget/frame/${key}`);
      assert.equal(res.status, 404, key);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.match(res.text, /does not exist/);
      assert.doesNotMatch(res.text, /<script/);
      assert.equal(frameAncestorsOf(res.headers), '*');
    }
  });

  it('answers a disabled widget with a 403 page', async () => {
    const product = await createProduct(ctx().a.api, { widget_config: { enabled: false } });
    const res = await anonymous().get(`/widget/frame/${product.widget_key}`);
    assert.equal(res.status, 403);
    assert.match(res.text, /not available/);
  });

  it('shows the demo page for a product of the first-start workspace, with its snippet', async () => {
    const product = await createProduct(ctx().a.api, { name: 'Demo & Co' });
    const res = await anonymous().get(`/widget/demo/${product.widget_key}`, { headers: { host: 'support.test:8080' } });
    assert.equal(res.status, 200);
    const snippet = `<script src="http://support.test:8080/widget.js" data-widget-key="${product.widget_key}" async></script>`;
    assert.ok(res.text.includes(snippet), 'the snippet itself');
    assert.ok(res.text.includes(snippet.replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')), 'the snippet as text');
    assert.match(res.text, /Demo &amp; Co/);
    assert.match(policyOf(res.headers), /frame-ancestors 'none'/);
    assert.doesNotMatch(policyOf(res.headers), /unsafe-inline/);
  });

  it('shows no demo page for another workspace\'s product, or an unknown key', async () => {
    const other = await createProduct(ctx().b.api);
    assert.equal((await anonymous().get(`/widget/demo/${other.widget_key}`)).status, 404);
    assert.equal((await anonymous().get('/widget/demo/wk_doesnotexist0000000000')).status, 404);
  });

  it('has a front door that takes a widget key', async () => {
    const index = await anonymous().get('/widget/demo');
    assert.equal(index.status, 200);
    assert.match(index.text, /name="key"/);
    const res = await anonymous().get('/widget/demo?key=wk_abc');
    assert.equal(res.status, 303);
    assert.equal(res.headers.location, 'demo/wk_abc');
  });
});

describeEachDialect('the widget demo with LOOPDESK_DEMO=1', (ctx) => {
  it('shows the demo page for a product of any workspace', async () => {
    const product = await createProduct(ctx().b.api);
    const res = await ctx().client(null).get(`/widget/demo/${product.widget_key}`);
    assert.equal(res.status, 200);
    assert.ok(res.text.includes(`data-widget-key="${product.widget_key}"`));
  });
}, { widgetDemo: true });

describe('a missing widget build', () => {
  it('stops the server at start with what to run', () => {
    const empty = mkdtempSync(join(tmpdir(), 'loopdesk-widget-'));
    assert.throws(() => loadWidgetBuild(empty), (error: Error) =>
      error instanceof WidgetBuildError && /widget is not built/.test(error.message) && error.message.includes('npm run build:widget'));
  });
});
