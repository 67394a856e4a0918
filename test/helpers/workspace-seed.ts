// A small, complete set of resources in one workspace, created through the public API: products,
// issues (one done, one released), conversations with a message and a link, a release, webhook
// endpoints with a delivery; members joined through invitations, pending invitations, API keys and
// saved replies; calendars and SLA policies; contacts; the owner's notifications; a help center's collections and articles; and in each product's widget, a visitor with a conversation and an idea, and another visitor with
// a conversation of their own. The reliability suites address these by resource kind (see
// id-references.ts).
import assert from 'node:assert/strict';
import { mailSample, postMail } from './email.js';
import { fanOutAll, numberedEvents, recordEvents, type EventContext } from './events.js';
import { createIssue, createProduct, createRelease, importConversation, invite, joinAsMember, linkConversation } from './factories.js';
import type { Client, TestContext, WorkspaceFixture } from './harness.js';
import type { Resource } from './id-references.js';

export type SeededIds = Record<Resource, string[]> & {
  shortcode: string[];
  /** A visitor session token per product (`widget` of the same index). */
  visitorToken: string[];
  /** Per product, a conversation of another visitor of the same widget, whom the first may not see. */
  siblingConversation: string[];
};

/** Webhook endpoints, members, invitations, keys and suggestions seeded per workspace: a consuming probe's controls each take one beyond the first. */
const WEBHOOKS = 3;
const SPARES = 2;

/**
 * Members (agents beside the owner) joined through invitations, pending invitations with their
 * tokens, and API keys, all through the public API.
 */
async function seedPeople(workspace: WorkspaceFixture, anonymous: Client, ids: SeededIds): Promise<void> {
  for (let m = 0; m < SPARES; m++) ids.member.push((await joinAsMember(workspace.api, anonymous)).member.id);
  for (let i = 0; i <= SPARES; i++) {
    const invitation = await invite(workspace.api);
    ids.invitation.push(invitation.id);
    ids.invitation_token.push(invitation.token);
  }
  for (let k = 0; k <= SPARES; k++) {
    const res = await workspace.api.post('/api/v1/api-keys', { label: `seed ${k}` });
    assert.equal(res.status, 201, res.text);
    ids.api_key.push(res.body.data.id);
  }
}

/** Saved replies: one, and one per control that deletes. */
async function seedSavedReplies(api: Client, prefix: string, ids: SeededIds): Promise<void> {
  for (let r = 0; r <= SPARES; r++) {
    const res = await api.post('/api/v1/saved-replies', { title: `${prefix} reply ${r}`, body: 'Hello {{contact.first_name}}' });
    assert.equal(res.status, 201, res.text);
    ids.saved_reply.push(res.body.data.id);
  }
}

/**
 * Calendars and SLA policies: one of each, and one per control that deletes. The first policy
 * measures in the first calendar and names the first product, so that both are referenced; the
 * spare calendars are used by no policy, so that deleting them succeeds.
 */
async function seedServiceLevels(api: Client, prefix: string, productId: string, ids: SeededIds): Promise<void> {
  for (let c = 0; c <= SPARES; c++) {
    const res = await api.post('/api/v1/calendars', { name: `${prefix} hours ${c}`, timezone: 'Europe/Berlin', hours: { mon: [['09:00', '17:00']] }, holidays: ['2026-12-25'] });
    assert.equal(res.status, 201, res.text);
    ids.calendar.push(res.body.data.id);
  }
  for (let p = 0; p <= SPARES; p++) {
    const res = await api.post('/api/v1/sla-policies', {
      name: `${prefix} policy ${p}`, first_response_seconds: 3600,
      ...(p === 0 && { calendar_id: ids.calendar[0], conditions: { product_ids: [productId], priorities: ['urgent'] } }),
    });
    assert.equal(res.status, 201, res.text);
    ids.sla_policy.push(res.body.data.id);
  }
}

/**
 * The product's help center: collections and published articles (in French), one of each and one
 * per control that deletes, and an original in German that an article (PATCHed) or a new one (in
 * English, the default) may translate.
 */
async function seedHelpCenter(api: Client, productId: string, prefix: string, ids: SeededIds): Promise<void> {
  const article = async (title: string, locale: string) => {
    const res = await api.post('/api/v1/articles', { product_id: productId, title, body: 'How to', status: 'published', locale });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id as string;
  };
  for (let h = 0; h <= SPARES; h++) {
    const collection = await api.post('/api/v1/collections', { product_id: productId, name: `${prefix} collection ${h}` });
    assert.equal(collection.status, 201, collection.text);
    ids.collection.push(collection.body.data.id);
    ids.article.push(await article(`${prefix} article ${h}`, 'fr'));
  }
  ids.originalArticle.push(await article(`${prefix} original`, 'de'));
}

/** Automation rules (inactive, so seeding runs none) and macros: one of each, and one per control that deletes. */
async function seedAutomation(api: Client, prefix: string, ids: SeededIds): Promise<void> {
  for (let r = 0; r <= SPARES; r++) {
    const rule = await api.post('/api/v1/automation-rules', {
      name: `${prefix} rule ${r}`, active: false, event: 'conversation.created',
      conditions: [{ field: 'title', operator: 'contains', value: 'refund' }], actions: [{ type: 'add_tags', tags: ['refund'] }],
    });
    assert.equal(rule.status, 201, rule.text);
    ids.automation_rule.push(rule.body.data.id);
    const macro = await api.post('/api/v1/macros', { name: `${prefix} macro ${r}`, actions: [{ type: 'set_priority', priority: 'high' }] });
    assert.equal(macro.status, 201, macro.text);
    ids.macro.push(macro.body.data.id);
  }
}

/** Contacts, each writing in through an imported conversation: one, and one per control that erases. */
async function seedContacts(api: Client, productId: string, prefix: string, ids: SeededIds): Promise<void> {
  for (let c = 0; c <= SPARES; c++) {
    const conversation = await importConversation(api, productId, {
      title: `${prefix} contact ${c}'s question`, contact: { name: `${prefix} Contact ${c}`, email: `contact-${c}-${prefix.toLowerCase()}@example.com` }, body: 'Hello',
    });
    ids.contact.push(conversation.contact.id);
  }
}

/**
 * Webhook endpoints (at a public address, so the SSRF guard lets them be) and the delivery of one
 * event to the first of them.
 */
async function seedWebhooks(workspace: WorkspaceFixture, prefix: string, events: EventContext, ids: SeededIds): Promise<void> {
  for (let w = 1; w <= WEBHOOKS; w++) {
    const res = await workspace.api.post('/api/v1/webhooks', { url: `https://hooks.example.com/${prefix}/${w}`, events: ['*'] });
    assert.equal(res.status, 201, res.text);
    ids.webhook.push(res.body.data.id);
  }
  await recordEvents(events, numberedEvents(workspace.id, 1));
  await fanOutAll(events);
  const deliveries = await workspace.api.get(`/api/v1/webhooks/${ids.webhook[0]}/deliveries`);
  ids.delivery.push(deliveries.body.data[0].id);
}

/**
 * In the product's widget: a visitor with a conversation and an idea, and a second visitor with a
 * conversation assigned to the owner, whose message in it is the owner's notification.
 */
async function seedWidget(context: Pick<TestContext, 'client'>, api: Client, widgetKey: string, prefix: string, ids: SeededIds): Promise<void> {
  const path = `/widget/v1/${widgetKey}`;
  const visitor = async () => {
    const res = await context.client(null).post(`${path}/sessions`, { name: `${prefix} visitor` });
    assert.equal(res.status, 201, res.text);
    return res.body.data.token as string;
  };
  const start = async (token: string, body: Record<string, unknown>) => {
    const res = await context.client(token).post(`${path}/conversations`, body);
    assert.equal(res.status, 201, res.text);
    return res.body.data.id as string;
  };
  const first = await visitor();
  ids.widget.push(widgetKey);
  ids.visitorToken.push(first);
  ids.visitorConversation.push(await start(first, { body: `${prefix} visitor's question` }));
  ids.idea.push(await start(first, { type: 'idea', title: `${prefix} idea`, body: 'Please' }));
  const second = await visitor();
  const sibling = await start(second, { body: `${prefix} other visitor's question` });
  ids.siblingConversation.push(sibling);
  // The owner takes the second visitor's conversation; the visitor's next message notifies them.
  const assigned = await api.patch(`/api/v1/conversations/${sibling}`, { assignee_id: ids.member[0] });
  assert.equal(assigned.status, 200, assigned.text);
  const written = await context.client(second).post(`${path}/conversations/${sibling}/messages`, { body: 'Any news?' });
  assert.equal(written.status, 201, written.text);
  const notifications = await api.get('/api/v1/notifications?limit=1');
  assert.equal(notifications.status, 200, notifications.text);
  ids.notification.push(notifications.body.data[0].id);
}

/**
 * Open link suggestions to the product's first issue, each for a conversation of its own (a re-run of
 * the seeded conversation then leaves them open): one, and one per control that accepts or dismisses.
 */
async function seedSuggestions(api: Client, productId: string, issue: { title: string }, ids: SeededIds): Promise<void> {
  for (let s = 0; s <= 2 * SPARES + 1; s++) {
    const conversation = await importConversation(api, productId, { title: issue.title, body: issue.title });
    const res = await api.post(`/api/v1/conversations/${conversation.id}/triage`);
    assert.equal(res.status, 200, res.text);
    ids.suggestion.push(res.body.data[0].id);
  }
}

/** The attachments of a mail with a file (the Outlook sample) received for the product. */
async function mailedAttachments(api: Client, productId: string): Promise<string[]> {
  const res = await postMail(api, mailSample('outlook-reply', { REPLY_TO: 'support@example.com' }), productId);
  assert.equal(res.status, 202, res.text);
  const { conversation_id, message_id } = res.body.data;
  const detail = (await api.get(`/api/v1/conversations/${conversation_id}`)).body.data;
  return detail.messages.find((message: { id: string }) => message.id === message_id).attachments.map((file: { id: string }) => file.id);
}

/**
 * `products` products with issue prefixes `<prefix>1`, `<prefix>2`, …, each with three issues, a
 * conversation linked to its first issue, and a release of its second issue; then webhook
 * endpoints and a delivery (events recorded through `events`).
 */
export async function seedWorkspace(
  workspace: WorkspaceFixture, prefix: string, products: number, context: EventContext & Pick<TestContext, 'client'>,
): Promise<SeededIds> {
  const { api } = workspace;
  const ids: SeededIds = {
    product: [], issue: [], shortcode: [], conversation: [], release: [], member: [workspace.owner.id], webhook: [], delivery: [],
    invitation: [], api_key: [], invitation_token: [], workspace: [workspace.id], suggestion: [], saved_reply: [], contact: [], attachment: [], calendar: [], sla_policy: [], notification: [],
    collection: [], article: [], originalArticle: [], automation_rule: [], macro: [],
    widget: [], visitorConversation: [], idea: [], visitorToken: [], siblingConversation: [],
  };
  for (let p = 1; p <= products; p++) {
    // Without proof of work, so that suites can start sessions and send forms.
    const product = await createProduct(api, { name: `${prefix} product ${p}`, issue_prefix: `${prefix}${p}`, widget_config: { proof_of_work: false } });
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
    ids.attachment.push(...(await mailedAttachments(api, product.id)));
    const release = await createRelease(api, product.id, { title: `${prefix}${p} release`, issue_ids: [issues[1].id] });
    ids.release.push(release.id);
    await seedSuggestions(api, product.id, issues[0], ids);
    await seedWidget(context, api, product.widget_key, `${prefix}${p}`, ids);
  }
  await seedWebhooks(workspace, prefix, context, ids);
  await seedPeople(workspace, context.client(null), ids);
  await seedSavedReplies(api, prefix, ids);
  await seedServiceLevels(api, prefix, ids.product[0]!, ids);
  await seedAutomation(api, prefix, ids);
  await seedContacts(api, ids.product[0]!, prefix, ids);
  await seedHelpCenter(api, ids.product[0]!, prefix, ids);
  return ids;
}
