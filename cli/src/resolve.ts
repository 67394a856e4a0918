// Names a person types, turned into the ids the API wants: a product's slug, an issue's shortcode.
// UUIDs pass through untouched (the API checks them); anything else costs a request.
import type { Api, Schemas } from './api.js';
import { findFolderProduct } from './config.js';
import { CliError, UsageError } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (text: string): boolean => UUID.test(text);

/** Every page of a list, in order (200 a page, the API's maximum). */
export async function* everyPage<T>(fetchPage: (offset: number) => Promise<{ data: T[]; pagination: { total: number } }>): AsyncGenerator<T> {
  for (let offset = 0; ; ) {
    const page = await fetchPage(offset);
    yield* page.data;
    offset += page.data.length;
    if (page.data.length === 0 || offset >= page.pagination.total) return;
  }
}

/** A product by UUID or slug; a CliError when there is none. */
export async function findProduct(api: Api, ref: string): Promise<Schemas['Product']> {
  if (isUuid(ref)) return (await api.call(api.client.GET('/api/v1/products/{id}', { params: { path: { id: ref } } }))).data;
  const slug = ref.toLowerCase();
  const products = everyPage((offset) => api.call(api.client.GET('/api/v1/products', { params: { query: { limit: 200, offset } } })));
  for await (const product of products) {
    // Fetched again on its own so that --json prints the product, as it does for a UUID.
    if (product.slug === slug) return findProduct(api, product.id);
  }
  throw new CliError(`no product with the slug ${ref}`);
}

/** A product's id, from its UUID (no request) or its slug. */
export async function productIdOf(api: Api, ref: string): Promise<string> {
  return isUuid(ref) ? ref : (await findProduct(api, ref)).id;
}

/** The product a command works on: --product, else this folder's; null when neither names one. */
export async function scopedProductId(api: Api, ref: string | undefined): Promise<string | null> {
  const chosen = ref ?? findFolderProduct()?.productId;
  return chosen === undefined ? null : productIdOf(api, chosen);
}

export async function requiredProductId(api: Api, ref: string | undefined): Promise<string> {
  const productId = await scopedProductId(api, ref);
  if (productId === null) throw new UsageError('which product? Pass --product SLUG|ID, or tie this folder to one with ldk init --product SLUG|ID');
  return productId;
}

/** Issue UUIDs for UUIDs and shortcodes (APP-12, app-12). */
export function issueIds(api: Api, refs: string[]): Promise<string[]> {
  return Promise.all(
    refs.map(async (ref) =>
      isUuid(ref) ? ref : (await api.call(api.client.GET('/api/v1/issues/{id}', { params: { path: { id: ref } } }))).data.id,
    ),
  );
}

/** Every issue of a product in `status`. */
export async function issuesInStatus(api: Api, productId: string, status: Schemas['Issue']['status']): Promise<Schemas['IssueListItem'][]> {
  const issues: Schemas['IssueListItem'][] = [];
  const query = { product_id: productId, status, limit: 200 };
  for await (const issue of everyPage((offset) => api.call(api.client.GET('/api/v1/issues', { params: { query: { ...query, offset } } })))) {
    issues.push(issue);
  }
  return issues;
}
