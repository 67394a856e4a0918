// A small, complete set of resources in one workspace, created through the public API: products,
// issues (one done, one released), conversations with a message and a link, a release. The
// reliability suites address these by resource kind (see id-references.ts).
import { createIssue, createProduct, createRelease, importConversation, linkConversation } from './factories.js';
import type { WorkspaceFixture } from './harness.js';
import type { Resource } from './id-references.js';

export type SeededIds = Record<Resource, string[]> & { shortcode: string[] };

/**
 * `products` products with issue prefixes `<prefix>1`, `<prefix>2`, …, each with three issues, a
 * conversation linked to its first issue, and a release of its second issue.
 */
export async function seedWorkspace(workspace: WorkspaceFixture, prefix: string, products = 2): Promise<SeededIds> {
  const { api } = workspace;
  const ids: SeededIds = { product: [], issue: [], shortcode: [], conversation: [], release: [], member: [workspace.owner.id] };
  for (let p = 1; p <= products; p++) {
    const product = await createProduct(api, { name: `${prefix} product ${p}`, issue_prefix: `${prefix}${p}` });
    ids.product.push(product.id);
    const issues = [];
    for (const status of ['pending', 'done', 'in_progress']) {
      const issue = await createIssue(api, product.id, { title: `${prefix}${p} ${status} issue`, status, assignee_id: workspace.owner.id });
      issues.push(issue);
      ids.issue.push(issue.id);
      ids.shortcode.push(issue.shortcode);
    }
    const conversation = await importConversation(api, product.id, {
      title: `${prefix}${p} conversation`, contact: { name: 'Seed', email: `seed-${prefix}${p}@example.com` }, body: 'First message',
    });
    ids.conversation.push(conversation.id);
    await linkConversation(api, issues[0].id, conversation.id);
    const release = await createRelease(api, product.id, { title: `${prefix}${p} release`, issue_ids: [issues[1].id] });
    ids.release.push(release.id);
  }
  return ids;
}
