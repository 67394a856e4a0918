// A small, complete set of resources in one workspace, created through the public API: products,
// issues (one done, one released), conversations with a message and a link, a release. The
// reliability suites address these by resource kind (see id-references.ts).
import assert from 'node:assert/strict';
import type { Resource } from './id-references.js';
import type { Client, WorkspaceFixture } from './harness.js';

export type SeededIds = Record<Resource, string[]> & { shortcode: string[] };

async function created(api: Client, url: string, body: unknown): Promise<Record<string, any>> {
  const res = await api.post(url, body);
  assert.ok(res.status === 200 || res.status === 201, `${url}: ${res.status} ${res.text}`);
  return res.body.data;
}

/**
 * `products` products with issue prefixes `<prefix>1`, `<prefix>2`, …, each with three issues, a
 * conversation linked to its first issue, and a release of its second issue.
 */
export async function seedWorkspace(workspace: WorkspaceFixture, prefix: string, products = 2): Promise<SeededIds> {
  const { api } = workspace;
  const ids: SeededIds = { product: [], issue: [], shortcode: [], conversation: [], release: [], member: [workspace.owner.id] };
  for (let p = 1; p <= products; p++) {
    const product = await created(api, '/api/v1/products', { name: `${prefix} product ${p}`, issue_prefix: `${prefix}${p}` });
    ids.product.push(product.id);
    const issues = [];
    for (const status of ['pending', 'done', 'in_progress']) {
      const issue = await created(api, '/api/v1/issues', {
        product_id: product.id, title: `${prefix}${p} ${status} issue`, status, assignee_id: workspace.owner.id,
      });
      issues.push(issue);
      ids.issue.push(issue.id);
      ids.shortcode.push(issue.shortcode);
    }
    const conversation = await created(api, '/api/v1/conversations', {
      product_id: product.id, title: `${prefix}${p} conversation`, contact: { name: 'Seed', email: `seed-${prefix}${p}@example.com` },
      body: 'First message',
    });
    ids.conversation.push(conversation.id);
    await created(api, `/api/v1/issues/${issues[0].id}/conversations`, { conversation_id: conversation.id });
    const release = await created(api, '/api/v1/releases', { product_id: product.id, title: `${prefix}${p} release`, issue_ids: [issues[1].id] });
    ids.release.push(release.id);
  }
  return ids;
}
