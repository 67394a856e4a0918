// The public help center (docs/help-center.md, "The public pages"): server-rendered HTML without
// credentials or script, published articles only, translations as hreflang alternates, a sitemap
// and a search page, a strict CSP, and pages that change on the next request after a write.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createProduct } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';

const XSS_BODY = [
  'Safe **bold** text.',
  '<script>alert("raw")</script>',
  '<img src=x onerror=alert(1)> <svg onload=alert(2)><circle/></svg> <a href="#" onclick="alert(3)">raw link</a>',
  '[js](javascript:alert(4)) [JS upper](JAVASCRIPT:alert(5)) [tab](java\tscript:alert(6)) [entity](&#106;avascript:alert(7))',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCg4KTwvc2NyaXB0Pg==) [vb](vbscript:msgbox(9)) [docs](https://example.com/docs "Docs")',
  '![pixel](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMTApPjwvc3ZnPg==) ![js image](javascript:alert(11)) ![ok](https://img.example/a.png)',
  '<iframe src="https://evil.example"></iframe> <style>body{display:none}</style> <form action="https://evil.example"><input></form>',
  '**unclosed [link](https://example.com `code <b>',
].join('\n\n');

async function helpCenter(ctx: TestContext) {
  const { api } = ctx.a;
  const product = await createProduct(api, { name: 'Acme <Help> & Co', widget_config: { color: '#ffcc00' } });
  const collection = (await api.post('/api/v1/collections', { product_id: product.id, name: 'Getting started', description: 'First <steps>' })).body.data;
  const post = async (body: Record<string, unknown>) => {
    const res = await api.post('/api/v1/articles', { product_id: product.id, status: 'published', ...body });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  };
  const original = await post({ title: 'Reset your password', body: 'Open **Settings**.', collection_id: collection.id });
  const german = await post({ title: 'Passwort zurücksetzen', body: 'Öffnen Sie die Einstellungen.', locale: 'de', translation_of: original.id, collection_id: collection.id });
  const hostile = await post({ title: '<img src=x onerror=alert(1)> "quoted" title', body: XSS_BODY });
  const draft = await post({ title: 'Secret roadmap', body: 'Unannounced plans', status: 'draft', slug: 'secret-roadmap' });
  return { product, collection, original, german, hostile, draft, base: `/help/${product.help_slug}` };
}

/** The page's markup (its tags: text is escaped, so `<` starts a tag only where the server wrote one) runs and loads nothing. */
function assertInert(html: string): void {
  const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
  for (const tag of tags) {
    assert.doesNotMatch(tag, /^<(script|iframe|svg|object|embed|math|base|meta http-equiv)\b/i, tag);
    // Attribute values are escaped text: the attributes are what is left without them.
    assert.doesNotMatch(tag.replace(/"[^"]*"/g, '""'), /\son[a-z]+\s*=/i, `an event-handler attribute: ${tag}`);
    assert.doesNotMatch(tag, /\s(href|src|action|formaction)\s*=\s*"\s*(javascript|vbscript|data|file):/i, tag);
    if (/^<form\b/i.test(tag)) assert.match(tag, /action="http:\/\/[^"]+\/search"/, tag);
  }
  assert.equal(tags.filter((tag) => /^<style\b/i.test(tag)).length <= 1, true, 'one stylesheet at most: the page\'s own');
}

describeEachDialect('the public help center', (ctx) => {
  const anonymous = () => ctx().client(null);

  it('shows the collections and their published articles, without credentials, in plain HTML', async () => {
    const { base, original, draft, hostile } = await helpCenter(ctx());
    const res = await anonymous().get(base);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    const page = res.text;
    assert.match(page, /^<!doctype html>\n<html lang="en">/);
    assert.match(page, /<title>Help Center · Acme &lt;Help&gt; &amp; Co Help Center<\/title>/);
    assert.match(page, /<main id="main">/);
    assert.match(page, /<form class="search" role="search" method="get" action="http:\/\/[^"]+\/search">/);
    assert.match(page, /<label for="q">Search the help center<\/label>/);
    assert.match(page, /Getting started<\/a><\/h2><p>First &lt;steps&gt;<\/p>/);
    assert.ok(page.includes(`/articles/${original.slug}?locale=en"`));
    assert.ok(page.includes(`/articles/${hostile.slug}?locale=en"`));
    assert.doesNotMatch(page, /Secret roadmap/);
    assert.ok(!page.includes(draft.slug));
    assertInert(page);
  });

  it('sends a strict Content-Security-Policy: no script, the one stylesheet by its hash, no framing', async () => {
    const { base, original } = await helpCenter(ctx());
    for (const path of [base, `${base}/articles/${original.slug}`, `${base}/search?q=x`, `${base}/getting-started`]) {
      const res = await anonymous().get(path);
      const policy = String(res.headers['content-security-policy']);
      assert.match(policy, /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'self' https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/, path);
      const style = /<style>([^<]*)<\/style>/.exec(res.text)![1];
      assert.ok(policy.includes(`'sha256-${createHash('sha256').update(style).digest('base64')}'`), 'the inline stylesheet is the one the policy allows');
      assert.doesNotMatch(policy, /unsafe-inline|script-src/);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    }
  });

  it('themes the page from the widget colour, readable: dark text on a light colour, links darkened to 4.5:1', async () => {
    const { base } = await helpCenter(ctx());
    const page = (await anonymous().get(base)).text;
    assert.match(page, /header\{background:#ffcc00;color:#000000\}/);
    const link = /a\{color:(#[0-9a-f]{6})\}/.exec(page)![1];
    assert.notEqual(link, '#ffcc00');
  });

  it('renders an article\'s Markdown with every hostile part inert (raw HTML, scripts, javascript:/data: URLs, event handlers, SVG)', async () => {
    const { base, hostile } = await helpCenter(ctx());
    const res = await anonymous().get(`${base}/articles/${hostile.slug}`);
    assert.equal(res.status, 200);
    const page = res.text;
    assertInert(page);
    assert.match(page, /<h1>&lt;img src=x onerror=alert\(1\)&gt; &quot;quoted&quot; title<\/h1>/);
    assert.match(page, /<title>&lt;img src=x onerror=alert\(1\)&gt; &quot;quoted&quot; title · /);
    assert.match(page, /Safe <strong>bold<\/strong> text\./);
    assert.match(page, /&lt;script&gt;alert\(&quot;raw&quot;\)&lt;\/script&gt;/);
    assert.match(page, /<a href="https:\/\/example.com\/docs" title="Docs" rel="nofollow noopener">docs<\/a>/);
    assert.match(page, /<img src="https:\/\/img.example\/a.png" alt="ok" loading="lazy">/);
    assert.equal((page.match(/<a href="https:\/\/example.com\/docs"/g) ?? []).length, 1);
    assert.equal((page.match(/<img /g) ?? []).length, 1, 'only the https image');
  });

  it('serves the article in the reader\'s language, with hreflang alternates and a canonical link', async () => {
    const { base, original, german } = await helpCenter(ctx());
    const english = (await anonymous().get(`${base}/articles/${original.slug}`)).text;
    assert.match(english, /<html lang="en">/);
    for (const [locale, slug] of [['en', original.slug], ['de', german.slug]]) {
      assert.match(english, new RegExp(`<link rel="alternate" hreflang="${locale}" href="http://[^"]+/articles/${slug}\\?locale=${locale}">`));
    }
    assert.match(english, new RegExp(`<link rel="canonical" href="http://[^"]+/articles/${original.slug}\\?locale=en">`));
    // ?locale= names the German article: another slug, so the page says where it is.
    const asked = await anonymous().get(`${base}/articles/${original.slug}?locale=de`);
    assert.equal(asked.status, 302);
    assert.match(String(asked.headers.location), new RegExp(`/articles/${german.slug}\\?locale=de$`));
    const accepted = await anonymous().get(`${base}/articles/${original.slug}`, { headers: { 'accept-language': 'de-CH, de;q=0.9, en;q=0.5' } });
    assert.equal(accepted.status, 302);
    assert.equal(accepted.headers.vary, 'Accept-Language');
    const page = (await anonymous().get(`${base}/articles/${german.slug}?locale=de`)).text;
    assert.match(page, /<html lang="de">/);
    assert.match(page, /<h1>Passwort zurücksetzen<\/h1>/);
    assert.match(page, /<nav class="languages" aria-label="Languages">/);
    // A language with no translation: the original.
    assert.equal((await anonymous().get(`${base}/articles/${original.slug}?locale=fr`)).status, 200);
  });

  it('never shows a draft: not listed, not found by its slug, not searched, not in the sitemap', async () => {
    const { base, draft } = await helpCenter(ctx());
    const res = await anonymous().get(`${base}/articles/${draft.slug}`);
    assert.equal(res.status, 404);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.doesNotMatch(res.text, /Secret|Unannounced/);
    assert.doesNotMatch((await anonymous().get(`${base}/search?q=roadmap`)).text, /Secret roadmap/);
    assert.doesNotMatch((await anonymous().get(`${base}/sitemap.xml`)).text, /secret-roadmap/);
  });

  it('shows a publish, an edit and an unpublish on the next request (ETag, no-cache)', async () => {
    const { base, original, draft } = await helpCenter(ctx());
    const path = `${base}/articles/${original.slug}`;
    const first = await anonymous().get(path);
    assert.equal(first.headers['cache-control'], 'public, no-cache');
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    assert.equal((await anonymous().get(path, { headers: { 'if-none-match': etag } })).status, 304);
    await ctx().a.api.patch(`/api/v1/articles/${original.id}`, { body: 'Open **Preferences** instead.' });
    const edited = await anonymous().get(path, { headers: { 'if-none-match': etag } });
    assert.equal(edited.status, 200);
    assert.match(edited.text, /Preferences/);
    await ctx().a.api.patch(`/api/v1/articles/${draft.id}`, { status: 'published' });
    assert.equal((await anonymous().get(`${base}/articles/${draft.slug}`)).status, 200);
    await ctx().a.api.patch(`/api/v1/articles/${draft.id}`, { status: 'draft' });
    assert.equal((await anonymous().get(`${base}/articles/${draft.slug}`)).status, 404);
  });

  it('shows a collection\'s articles with their excerpts, in the reader\'s language', async () => {
    const { base, collection, original, german } = await helpCenter(ctx());
    const page = (await anonymous().get(`${base}/${collection.slug}`)).text;
    assert.match(page, /<h1>Getting started<\/h1>/);
    assert.match(page, /<nav class="crumbs" aria-label="Breadcrumb">/);
    assert.ok(page.includes(`/articles/${original.slug}?locale=en"`));
    assert.match(page, /<p class="excerpt" lang="en">Open Settings\.<\/p>/);
    const inGerman = (await anonymous().get(`${base}/${collection.slug}?locale=de`)).text;
    assert.ok(inGerman.includes(`/articles/${german.slug}?locale=de"`));
    assert.ok(!inGerman.includes(`/articles/${original.slug}?`), 'one article per translation group');
  });

  it('searches published articles (accents ignored, the last word a prefix) and escapes the query', async () => {
    const { base, german } = await helpCenter(ctx());
    const found = await anonymous().get(`${base}/search?q=zurucks`);
    assert.equal(found.status, 200);
    assert.ok(found.text.includes(`/articles/${german.slug}?locale=de"`));
    assert.match(found.text, /1 article found/);
    const hostile = await anonymous().get(`${base}/search?q=${encodeURIComponent('"><script>zzqx(1)</script>')}`);
    assert.equal(hostile.status, 200);
    assertInert(hostile.text);
    assert.match(hostile.text, /value="&quot;&gt;&lt;script&gt;zzqx\(1\)&lt;\/script&gt;"/);
    assert.match(hostile.text, /No articles match/);
    assert.match((await anonymous().get(`${base}/search`)).text, /<h1>Search the help center<\/h1>/);
    assert.equal((await anonymous().get(`${base}/search?q=${'a'.repeat(201)}`)).status, 400);
  });

  it('serves a sitemap of the collections and published articles, translations as xhtml:link alternates', async () => {
    const { base, original, german, collection } = await helpCenter(ctx());
    const res = await anonymous().get(`${base}/sitemap.xml`, { headers: { host: 'help.example.org' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
    assert.equal(XMLValidator.validate(res.text), true);
    const { urlset } = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(res.text);
    assert.equal(urlset.xmlns, 'http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = urlset.url.map((url: any) => url.loc);
    assert.ok(locs.includes(`http://help.example.org${base}/articles/${original.slug}?locale=en`));
    assert.ok(locs.includes(`http://help.example.org${base}/articles/${german.slug}?locale=de`));
    assert.ok(locs.includes(`http://help.example.org${base}/${collection.slug}?locale=en`));
    const entry = urlset.url.find((url: any) => url.loc.endsWith(`/articles/${original.slug}?locale=en`));
    assert.deepEqual(entry['xhtml:link'].map((link: any) => link.hreflang).sort(), ['de', 'en']);
  });

  it('answers unknown help centers, collections, articles and paths with a 404 page; odd slugs are never echoed', async () => {
    const { base, product } = await helpCenter(ctx());
    for (const path of ['/help/no-such-center', `${base}/no-such-collection`, `${base}/articles/${encodeURIComponent('<script>alert(1)</script>')}`,
      `${base}/articles/%C3%A9t%C3%A9%20%22x%22`, `${base}/articles/a/b/c`, `${base}/sitemap.xml/x`]) {
      const res = await anonymous().get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', path);
      assert.match(res.text, /<h1>Page not found<\/h1>/, path);
      assertInert(res.text);
      assert.match(String(res.headers['content-security-policy']), /^default-src 'none'/, path);
    }
    await ctx().a.api.patch(`/api/v1/products/${product.id}`, { help_center: false });
    assert.equal((await anonymous().get(base)).status, 404, 'a help center turned off');
  });

  it('keeps one workspace\'s help center apart from another\'s', async () => {
    const { base } = await helpCenter(ctx());
    const theirs = await createProduct(ctx().b.api);
    await ctx().b.api.post('/api/v1/articles', { product_id: theirs.id, title: 'Reset your password', body: 'Theirs', status: 'published' });
    const page = (await anonymous().get(`${base}/search?q=theirs`)).text;
    assert.match(page, /No articles match/);
  });
});
