// The public changelog of a product (docs/events.md): HTML and Atom, published releases only,
// the latest first, release notes as Markdown with raw HTML off, no API key needed.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createIssue, createProduct, createRelease } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';

async function productWithReleases(ctx: TestContext) {
  const { api } = ctx.a;
  const product = await createProduct(api, { name: 'Acme & Sons <App>' });
  const fixed = await createIssue(api, product.id, { title: 'Export no longer crashes', status: 'done' });
  const older = await createRelease(api, product.id, {
    title: 'October', version: '2.3.0', released_at: '2026-10-01T09:00:00.000Z',
    description: '**Faster** sync. <script>alert(1)</script> [bad](javascript:alert(1)) [docs](https://example.com/docs)',
  });
  const newer = await createRelease(api, product.id, { title: 'November', version: '2.4.0', released_at: '2026-11-01T09:00:00.000Z', issue_ids: [fixed.id] });
  const draft = await createRelease(api, product.id, { title: 'Secret plans', released_at: null });
  return { product, older, newer, draft };
}

describeEachDialect('the public changelog', (ctx) => {
  const anonymous = () => ctx().client(null);

  it('shows published releases, the latest first, with their versions, dates and shipped issues', async () => {
    const { product, older, newer } = await productWithReleases(ctx());
    const res = await anonymous().get(`/widget/v1/${product.widget_key}/changelog`);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    const page = res.text;
    assert.ok(page.indexOf(`release-${newer.id}`) < page.indexOf(`release-${older.id}`), 'latest first');
    assert.match(page, /2\.4\.0 — November/);
    assert.match(page, /<time datetime="2026-11-01T09:00:00.000Z">2026-11-01<\/time>/);
    assert.match(page, /<li>Export no longer crashes<\/li>/);
    assert.doesNotMatch(page, /Secret plans/, 'drafts are not published');
    assert.match(page, /Acme &amp; Sons &lt;App&gt;/);
  });

  it('renders release notes as Markdown with raw HTML and script links refused', async () => {
    const { product } = await productWithReleases(ctx());
    const page = (await anonymous().get(`/widget/v1/${product.widget_key}/changelog`)).text;
    assert.match(page, /<strong>Faster<\/strong> sync/);
    assert.match(page, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.doesNotMatch(page, /<script/);
    assert.doesNotMatch(page, /href="javascript:/);
    assert.match(page, /<a href="https:\/\/example.com\/docs">docs<\/a>/);
  });

  it('serves a well-formed Atom 1.0 feed with the required elements', async () => {
    const { product, older, newer } = await productWithReleases(ctx());
    const res = await anonymous().get(`/widget/v1/${product.widget_key}/changelog.xml`, { headers: { host: 'support.example.org' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/atom+xml; charset=utf-8');
    assert.equal(XMLValidator.validate(res.text), true);
    const { feed } = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(res.text);
    assert.equal(feed.xmlns, 'http://www.w3.org/2005/Atom');
    assert.equal(feed.id, `urn:uuid:${product.id}`);
    assert.equal(feed.title, 'Acme & Sons <App> changelog');
    assert.match(feed.updated, /^\d{4}-\d\d-\d\dT/);
    assert.equal(feed.author.name, 'Acme & Sons <App>');
    const self = [feed.link].flat().find((link: { rel: string }) => link.rel === 'self');
    assert.equal(self.href, `http://support.example.org/widget/v1/${product.widget_key}/changelog.xml`);
    const entries = [feed.entry].flat();
    assert.deepEqual(entries.map((entry: { id: string }) => entry.id), [`urn:uuid:${newer.id}`, `urn:uuid:${older.id}`]);
    for (const entry of entries) {
      assert.ok(entry.title && entry.updated && entry.published && entry.link.href && entry.content['#text']);
      assert.equal(entry.content.type, 'html');
    }
    assert.match(entries[0].content['#text'], /<li>Export no longer crashes<\/li>/);
  });

  it('keeps a product\'s changelog its own', async () => {
    const { product } = await productWithReleases(ctx());
    const other = await createProduct(ctx().b.api);
    await createRelease(ctx().b.api, other.id, { title: 'Beta only release' });
    const page = (await anonymous().get(`/widget/v1/${product.widget_key}/changelog`)).text;
    assert.doesNotMatch(page, /Beta only release/);
    const otherPage = (await anonymous().get(`/widget/v1/${other.widget_key}/changelog`)).text;
    assert.match(otherPage, /Beta only release/);
    assert.doesNotMatch(otherPage, /November/);
  });

  it('answers an unknown widget key with a 404 envelope', async () => {
    for (const path of ['/widget/v1/wk_nope/changelog', '/widget/v1/wk_nope/changelog.xml', '/widget/v1/wk_nope/elsewhere']) {
      const res = await anonymous().get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.error_code, 'not_found');
    }
  });

  it('answers 403 when the widget is disabled or the changelog is not public', async () => {
    const { api } = ctx().a;
    for (const widget_config of [{ enabled: false }, { changelog_public: false }]) {
      const product = await createProduct(api, { widget_config });
      for (const suffix of ['changelog', 'changelog.xml']) {
        const res = await anonymous().get(`/widget/v1/${product.widget_key}/${suffix}`);
        assert.equal(res.status, 403, `${JSON.stringify(widget_config)} ${suffix}`);
        assert.equal(res.body.error_code, 'forbidden');
      }
    }
  });

  it('shows an empty changelog for a product with nothing released', async () => {
    const product = await createProduct(ctx().a.api);
    const page = await anonymous().get(`/widget/v1/${product.widget_key}/changelog`);
    assert.match(page.text, /Nothing released yet/);
    const feed = await anonymous().get(`/widget/v1/${product.widget_key}/changelog.xml`);
    assert.equal(XMLValidator.validate(feed.text), true);
    assert.equal(new XMLParser().parse(feed.text).feed.updated, product.updated_at);
  });
});

describeEachDialect('conditional GET of the public changelog', (ctx) => {
  const anonymous = () => ctx().client(null);
  const FORMATS = ['changelog', 'changelog.xml'];

  for (const suffix of FORMATS) {
    it(`/${suffix}: ETag and Last-Modified on 200, and a 304 with an empty body and the same ETag for either condition`, async () => {
      const { product } = await productWithReleases(ctx());
      const path = `/widget/v1/${product.widget_key}/${suffix}`;
      const full = await anonymous().get(path);
      assert.equal(full.status, 200);
      const etag = String(full.headers.etag);
      const lastModified = String(full.headers['last-modified']);
      assert.match(etag, /^"[A-Za-z0-9_-]{43}"$/);
      assert.equal(new Date(lastModified).toUTCString(), lastModified, 'an HTTP date');
      const current: Record<string, string>[] = [
        { 'if-none-match': etag }, { 'if-none-match': `W/${etag}` }, { 'if-none-match': `"other", ${etag}` }, { 'if-none-match': '*' },
        { 'if-modified-since': lastModified }, { 'if-modified-since': new Date(Date.parse(lastModified) + 60_000).toUTCString() },
      ];
      for (const headers of current) {
        const res = await anonymous().get(path, { headers });
        assert.equal(res.status, 304, JSON.stringify(headers));
        assert.equal(res.text, '');
        assert.equal(res.headers.etag, etag);
        assert.equal(res.headers['last-modified'], lastModified);
        assert.equal(res.headers['content-type'], undefined);
      }
      assert.equal((await anonymous().request('HEAD', path, { headers: { 'if-none-match': etag } })).status, 304);
    });
  }

  it('answers in full for a stale ETag, an earlier or unparseable date, and lets If-None-Match decide over If-Modified-Since', async () => {
    const { product } = await productWithReleases(ctx());
    const path = `/widget/v1/${product.widget_key}/changelog.xml`;
    const full = await anonymous().get(path);
    const lastModified = String(full.headers['last-modified']);
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    const outdated: Record<string, string>[] = [
      { 'if-none-match': '"stale"' }, { 'if-modified-since': earlier }, { 'if-modified-since': 'yesterday' },
      { 'if-none-match': '"stale"', 'if-modified-since': lastModified },
    ];
    for (const headers of outdated) {
      const res = await anonymous().get(path, { headers });
      assert.equal(res.status, 200, JSON.stringify(headers));
      assert.equal(res.text, full.text);
    }
    assert.equal((await anonymous().get(path, { headers: { 'if-none-match': String(full.headers.etag), 'if-modified-since': earlier } })).status, 304);
  });

  for (const suffix of FORMATS) {
    it(`/${suffix}: changes both validators whenever the content changes, and keeps them while it does not`, async () => {
      const { api } = ctx().a;
      const { product, newer, draft } = await productWithReleases(ctx());
      const issue = await createIssue(api, product.id, { title: 'Shipped later' });
      const shipping = await createRelease(api, product.id, { title: 'December', issue_ids: [issue.id] });
      const changes: [string, () => Promise<unknown>][] = [
        ['a draft published', () => api.patch(`/api/v1/releases/${draft.id}`, { released_at: '2026-11-10T09:00:00.000Z' })],
        ['a release edited', () => api.patch(`/api/v1/releases/${newer.id}`, { description: 'Now with notes' })],
        ['a release unpublished', () => api.patch(`/api/v1/releases/${draft.id}`, { released_at: null })],
        ['a shipped issue renamed', () => api.patch(`/api/v1/issues/${issue.id}`, { title: 'Shipped, renamed' })],
        ['the product renamed', () => api.patch(`/api/v1/products/${product.id}`, { name: 'Acme Renamed' })],
        ['the latest release unpublished', () => api.patch(`/api/v1/releases/${shipping.id}`, { released_at: null })],
      ];
      const path = `/widget/v1/${product.widget_key}/${suffix}`;
      let before = await anonymous().get(path);
      for (const [what, change] of changes) {
        const unchanged = await anonymous().get(path);
        assert.deepEqual([unchanged.headers.etag, unchanged.headers['last-modified']], [before.headers.etag, before.headers['last-modified']]);
        await change();
        const after = await anonymous().get(path, { headers: { 'if-none-match': String(before.headers.etag) } });
        assert.equal(after.status, 200, what);
        assert.notEqual(after.headers.etag, before.headers.etag, what);
        assert.ok(Date.parse(String(after.headers['last-modified'])) > Date.parse(String(before.headers['last-modified'])), what);
        const sinceBefore = await anonymous().get(path, { headers: { 'if-modified-since': String(before.headers['last-modified']) } });
        assert.equal(sinceBefore.status, 200, `${what} (If-Modified-Since)`);
        before = after;
      }
    });
  }
});
