// ldk product list|show|create|update
import type { Command } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api, Schemas } from '../api.js';
import { findFolderProduct } from '../config.js';
import { UsageError } from '../errors.js';
import { addPageOptions, nothingGiven, type PageOptions } from '../options.js';
import { fields, pageSummary, paint, relativeTime, table } from '../output.js';
import { findProduct } from '../resolve.js';

type Product = Schemas['Product'];

const productLine = (product: Product) => `${paint('bold', product.name)} (slug ${product.slug}, issues ${product.issue_prefix}-…)`;

async function listProducts(api: Api, options: PageOptions): Promise<HumanOutput> {
  const page = await api.call(api.client.GET('/api/v1/products', { params: { query: { limit: options.limit, offset: options.offset } } }));
  const folderProduct = findFolderProduct()?.productId;
  return () => {
    const summary = pageSummary(page.pagination, page.data.length);
    if (page.data.length === 0) return summary;
    const rows = table(page.data, [
      { header: 'PRODUCT', value: (product) => product.id },
      { header: 'SLUG', value: (product) => product.slug, style: (product) => (product.id === folderProduct ? 'bold' : undefined) },
      { header: 'PREFIX', value: (product) => product.issue_prefix },
      { header: 'CREATED', value: (product) => relativeTime(product.created_at), style: () => 'dim' },
      { header: 'NAME', value: (product) => product.name + (product.id === folderProduct ? ' (this folder)' : ''), shrinks: true },
    ]);
    return `${rows}\n${summary}`;
  };
}

async function showProduct(api: Api, ref: string): Promise<HumanOutput> {
  const product = await findProduct(api, ref);
  return () =>
    `${paint('bold', product.name)}\n\n` +
    fields([
      ['slug', product.slug],
      ['issue prefix', product.issue_prefix],
      ['domain', product.domain],
      ['widget key', product.widget_key],
      ['product key', product.product_key],
      ['widget config', product.widget_config && JSON.stringify(product.widget_config)],
      ['created', relativeTime(product.created_at)],
      ['updated', relativeTime(product.updated_at)],
      ['id', product.id],
    ]);
}

async function createProduct(api: Api, name: string, options: { slug?: string; prefix?: string }): Promise<HumanOutput> {
  const body = { name, slug: options.slug, issue_prefix: options.prefix };
  const { data } = await api.call(api.client.POST('/api/v1/products', { body }));
  return () => `Created ${productLine(data)}, id ${data.id}.`;
}

async function updateProduct(api: Api, ref: string, options: { name?: string; slug?: string; prefix?: string }): Promise<HumanOutput> {
  const body = { name: options.name, slug: options.slug, issue_prefix: options.prefix };
  if (nothingGiven(body)) throw new UsageError('nothing to update: pass --name, --slug or --prefix');
  const { id } = await findProduct(api, ref);
  const { data } = await api.call(api.client.PATCH('/api/v1/products/{id}', { params: { path: { id } }, body }));
  return () => `Updated ${productLine(data)}.`;
}

export function defineProductCommands(program: Command): void {
  const product = program.command('product').description('the workspace\'s products');
  addPageOptions(product.command('list').description('list products, oldest first'), 'listProducts').action(withApi(listProducts));
  product.command('show').description('show a product, its keys included').argument('<product>', 'slug or UUID').action(withApi(showProduct));
  product.command('create').description('create a product; slug and issue prefix come from the name unless given')
    .argument('<name>', 'the product\'s name')
    .option('--slug <slug>', 'URL name (lower-case letters, digits and dashes)')
    .option('--prefix <prefix>', 'issue prefix, 1–3 upper-case letters or digits (APP → APP-1, APP-2, …)')
    .action(withApi(createProduct));
  product.command('update').description('rename a product, or change its slug or issue prefix (new issues only)')
    .argument('<product>', 'slug or UUID')
    .option('--name <name>', 'new name')
    .option('--slug <slug>', 'new slug')
    .option('--prefix <prefix>', 'new issue prefix')
    .action(withApi(updateProduct));
}
