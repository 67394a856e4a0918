// The help center (docs/help-center.md, "In the app"): the articles with filters (product,
// collection, status, locale, words) and each one's views and helpful rate, the collections, and
// the article editor.
import { api, ok, type Schemas } from '../../api/client.js';
import { Link, match, navigate, useLocation, withQuery } from '../../router.js';
import { useSession } from '../../session.js';
import { Button, Select, TextField } from '../../ui/form.js';
import { EmptyState, ErrorState, Loading, PageHeader, Pager } from '../../ui/page.js';
import { useResource } from '../../use-resource.js';
import { ArticleEditor } from './article-editor.js';
import { Collections } from './collections.js';

const PAGE_SIZE = 25;

type Article = Schemas['Article'];

/** "75% of 8" — the share of yes among the answers to "Was this helpful?", or a dash without any. */
export function helpfulRate(article: Pick<Article, 'helpful' | 'not_helpful'>): string {
  const votes = article.helpful + article.not_helpful;
  return votes === 0 ? '—' : `${Math.round((article.helpful / votes) * 100)}% of ${votes}`;
}

export function HelpCenter({ path }: { path: string }) {
  if (path === '/help-center/collections') return <Collections />;
  if (path === '/help-center/articles/new') return <ArticleEditor id={null} />;
  const id = match('/help-center/articles/:id', path)?.id;
  if (id) return <ArticleEditor id={id} />;
  return <ArticleList />;
}

function ArticleList() {
  const { query } = useLocation();
  const { products } = useSession();
  const productId = query.get('product') ?? '';
  const collectionId = query.get('collection') ?? '';
  const status = query.get('status') ?? '';
  const locale = query.get('locale') ?? '';
  const q = query.get('q') ?? '';
  const offset = Number(query.get('offset') ?? 0) || 0;
  const set = (changes: Record<string, string | null>) => navigate(withQuery('/help-center', query, { ...changes, offset: null }));
  const collections = useResource(() => ok(api.GET('/api/v1/collections', { params: { query: { limit: 200, ...(productId && { product_id: productId }) } } })), [productId]);
  const list = useResource(() => ok(api.GET('/api/v1/articles', {
    params: {
      query: {
        limit: PAGE_SIZE, offset, ...(productId && { product_id: productId }), ...(collectionId && { collection_id: collectionId }),
        ...(status && { status: status as 'draft' }), ...(locale && { locale }), ...(q.trim() && { q: q.trim() }),
      },
    },
  })), [productId, collectionId, status, locale, q, offset]);
  const collectionName = (id: string | null) => collections.data?.data.find((c) => c.id === id)?.name ?? '—';

  return (
    <div class="page">
      <PageHeader
        title="Help center"
        description="Articles customers find before they write: on the public help pages and in the widget."
        actions={
          <>
            <Button onClick={() => navigate('/help-center/collections')}>Collections</Button>
            <Button variant="primary" onClick={() => navigate('/help-center/articles/new')} disabled={products.length === 0}>New article</Button>
          </>
        }
      />
      <form class="filters-inline help-filters" role="search" aria-label="Filter articles" onSubmit={(event) => event.preventDefault()}>
        <TextField label="Words" type="search" value={q} maxLength={200} onInput={(event) => set({ q: event.currentTarget.value || null })} />
        {products.length > 1 && (
          <Select compact label="Product" value={productId} options={[['', 'All products'], ...products.map((p): [string, string] => [p.id, p.name])]}
            onChange={(product) => set({ product: product || null, collection: null })} />
        )}
        <Select compact label="Collection" value={collectionId} options={[['', 'Any collection'], ...(collections.data?.data ?? []).map((c): [string, string] => [c.id, c.name])]}
          onChange={(collection) => set({ collection: collection || null })} />
        <Select compact label="Status" value={status} options={[['', 'Any status'], ['draft', 'Drafts'], ['published', 'Published']]} onChange={(next) => set({ status: next || null })} />
        <TextField label="Locale" value={locale} maxLength={35} placeholder="en" onInput={(event) => set({ locale: event.currentTarget.value.trim() || null })} />
      </form>
      {list.error ? <ErrorState error={list.error} retry={list.reload} /> : null}
      {!list.data ? (list.error ? null : <Loading />) : list.data.data.length === 0 ? (
        <div class="card"><EmptyState title="No articles">Write the answers your team gives most often, once.</EmptyState></div>
      ) : (
        <div class="card table-wrap">
          <table class="table table-stack">
            <caption class="visually-hidden">Articles</caption>
            <thead><tr><th scope="col">Article</th><th scope="col">Collection</th><th scope="col">Locale</th><th scope="col">Status</th><th scope="col">Views</th><th scope="col">Helpful</th></tr></thead>
            <tbody>
              {list.data.data.map((article) => (
                <tr key={article.id}>
                  <td><Link href={`/help-center/articles/${article.id}`}><strong>{article.title}</strong></Link></td>
                  <td data-label="Collection">{collectionName(article.collection_id)}</td>
                  <td data-label="Locale">{article.locale}{article.translation_of && <span class="muted"> (translation)</span>}</td>
                  <td data-label="Status"><span class={article.status === 'published' ? 'badge badge-status-done' : 'badge'}>{article.status === 'published' ? 'Published' : 'Draft'}</span></td>
                  <td data-label="Views">{article.views}</td>
                  <td data-label="Helpful">{helpfulRate(article)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && <Pager label="Article pages" pagination={list.data.pagination} onPage={(next) => navigate(withQuery('/help-center', query, { offset: String(next) }))} />}
    </div>
  );
}
