// Releases: the list (newest first, paged), a new release made from done issues, and one release
// with its issues, published or a draft, linked to the product's public changelog.
import { api, ok } from '../../api/client.js';
import { Link, match, navigate, useLocation, withQuery } from '../../router.js';
import { useSession } from '../../session.js';
import { Button, Select } from '../../ui/form.js';
import { shortDate } from '../../ui/labels.js';
import { EmptyState, ErrorState, Loading, PageHeader, Pager } from '../../ui/page.js';
import { useResource } from '../../use-resource.js';
import { NewRelease } from './new-release.js';
import { ReleaseBadge } from './release-badge.js';
import { ReleaseView } from './release-view.js';

const PAGE_SIZE = 25;

export function Releases({ path }: { path: string }) {
  if (path === '/releases/new') return <NewRelease />;
  const id = match('/releases/:id', path)?.id;
  if (id) return <ReleaseView id={id} />;
  return <ReleaseList />;
}

function ReleaseList() {
  const { query } = useLocation();
  const { products, productName } = useSession();
  const productId = query.get('product') ?? '';
  const offset = Number(query.get('offset') ?? 0) || 0;
  const list = useResource(() => ok(api.GET('/api/v1/releases', {
    params: { query: { limit: PAGE_SIZE, offset, ...(productId && { product_id: productId }) } },
  })), [productId, offset]);

  return (
    <div class="page">
      <PageHeader
        title="Releases"
        description="Bundle done issues into a release; publishing it tells the customers who asked."
        actions={
          <>
            {products.length > 1 && (
              <Select compact label="Product" value={productId} options={[['', 'All products'], ...products.map((p): [string, string] => [p.id, p.name])]}
                onChange={(product) => navigate(withQuery('/releases', query, { product, offset: null }))} />
            )}
            <Button variant="primary" onClick={() => navigate('/releases/new')} disabled={products.length === 0}>New release</Button>
          </>
        }
      />
      {list.error ? <ErrorState error={list.error} retry={list.reload} /> : null}
      {!list.data ? (list.error ? null : <Loading />) : list.data.data.length === 0 ? (
        <div class="card"><EmptyState title="No releases yet">Move issues to Done on the board, then make a release of them here.</EmptyState></div>
      ) : (
        <div class="card table-wrap">
          <table class="table table-stack">
            <thead><tr><th scope="col">Release</th><th scope="col">Product</th><th scope="col">Issues</th><th scope="col">Status</th></tr></thead>
            <tbody>
              {list.data.data.map((release) => (
                <tr key={release.id}>
                  <td><Link href={`/releases/${release.id}`}><strong>{release.title}</strong></Link>{release.version && <span class="muted"> · {release.version}</span>}</td>
                  <td data-label="Product">{productName(release.product_id)}</td>
                  <td data-label="Issues">{release.linked_issues_count}</td>
                  <td><ReleaseBadge release={release} />{release.released_at && <span class="muted small"> {shortDate(release.released_at)}</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && <Pager label="Release pages" pagination={list.data.pagination} onPage={(next) => navigate(withQuery('/releases', query, { offset: String(next) }))} />}
    </div>
  );
}

