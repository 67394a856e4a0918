// The release announcement scenario of issue 11, built through the public API as the tour does:
// a product with three issues, four conversations of three contacts (Ada with two, Bob with one,
// Cy without an email) linked to them, and a release shipping the three issues. Plus readers of
// what announcements leave behind: system messages and emails.
import assert from 'node:assert/strict';
import { eventually } from './events.js';
import { createIssue, createProduct, createRelease, importConversation, linkConversation } from './factories.js';
import type { Client } from './harness.js';
import type { ReceivedMail } from './smtp-receiver.js';

export interface Scenario {
  product: { id: string; name: string };
  issues: { id: string; title: string }[];
  /** c1 (Ada) → export, c2 (Ada) → sync, c3 (Bob) → export and dark mode, c4 (Cy) → dark mode. */
  conversations: string[];
  /** Ada's conversation linked to no issue of the release. */
  unannounced: string;
  ada: string;
  bob: string;
}

const ISSUE_TITLES = ['Export crashes', 'Sync is slow', 'Dark mode <beta> & more'];

/** The product, issues, contacts' conversations and links; `tag` keeps names and emails apart between scenarios. */
export async function buildScenario(api: Client, tag: string): Promise<Scenario> {
  const product = await createProduct(api, { name: `Acme ${tag} App` });
  const issues: any[] = [];
  for (const title of ISSUE_TITLES) issues.push(await createIssue(api, product.id, { title }));
  const ada = { name: 'Ada Lovelace', email: `ada-${tag.toLowerCase()}@example.com` };
  const bob = { name: 'Bob Stone', email: `bob-${tag.toLowerCase()}@example.com` };
  const conversation = async (contact: { name: string; email?: string }, linkedTo: number[]) => {
    const created = await importConversation(api, product.id, { contact, body: 'It does not work' });
    for (const index of linkedTo) await linkConversation(api, issues[index].id, created.id);
    return created.id as string;
  };
  const conversations = [
    await conversation(ada, [0]), await conversation(ada, [1]), await conversation(bob, [0, 2]), await conversation({ name: 'Cy' }, [2]),
  ];
  const unannounced = await conversation(ada, []);
  return {
    product: { id: product.id, name: product.name },
    issues: issues.map((issue) => ({ id: issue.id, title: issue.title })),
    conversations, unannounced, ada: ada.email, bob: bob.email,
  };
}

/** Publishes (released_at omitted: now) a release of the scenario's three issues. */
export const publishScenario = (api: Client, scenario: Scenario, overrides: Record<string, unknown> = {}): Promise<any> =>
  createRelease(api, scenario.product.id, { title: 'November fixes', version: '2.4.0', issue_ids: scenario.issues.map((issue) => issue.id), ...overrides });

/** The system messages of a conversation. */
export async function systemMessages(api: Client, conversationId: string): Promise<any[]> {
  const res = await api.get(`/api/v1/conversations/${conversationId}`);
  assert.equal(res.status, 200, res.text);
  return res.body.data.messages.filter((message: any) => message.sender_type === 'system');
}

/** Each conversation's system messages, once every one of them has `count`. */
export const announcedIn = (api: Client, conversationIds: string[], count = 1): Promise<any[][]> =>
  eventually(() => Promise.all(conversationIds.map((id) => systemMessages(api, id))), (lists) => lists.every((list) => list.length >= count), 'announced');

/** The accepted emails to `address`. */
export const mailTo = (accepted: readonly ReceivedMail[], address: string): ReceivedMail[] =>
  accepted.filter((received) => received.recipients.includes(address));

/** The announcement messages the scenario's release gives c1…c4. */
export function expectedMessages({ product }: Scenario, release = '2.4.0 — November fixes'): string[] {
  const shipped = (titles: string) => `Good news: ${titles} shipped in ${product.name} ${release}.`;
  return [
    shipped('“Export crashes”'), shipped('“Sync is slow”'), shipped('“Export crashes” and “Dark mode <beta> & more”'), shipped('“Dark mode <beta> & more”'),
  ];
}
