// platform.md "Roles": every settings operation (webhooks, members, invitations, API keys,
// identity secrets) answers 403 to an agent, by key or by session, before any lookup or
// validation; read-only keys stay GET-only. The operations are read from openapi.json, so a new
// settings route is covered without touching this file.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDialect, type Client } from '../helpers/harness.js';
import { fillPath, operationsOf, type Operation } from '../helpers/openapi-operations.js';
import { newPerson } from '../helpers/sessions.js';

const SETTINGS_TAGS = new Set(['Webhooks', 'Members', 'API keys']);
const isSettings = (op: Operation & { tags?: string[] }) =>
  op.path.startsWith('/api/v1/') && (op.tags?.some((tag) => SETTINGS_TAGS.has(tag)) || /identity-secret/.test(op.path));

/** Settings operations with their tags (operationsOf drops them). */
async function settingsOperations(api: Client): Promise<Operation[]> {
  const document = (await api.get('/api/v1/openapi.json')).body;
  return operationsOf(document)
    .map((op) => ({ ...op, tags: document.paths[op.path][op.method.toLowerCase()].tags as string[] }))
    .filter(isSettings);
}

const ANY_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091';
const urlOf = (op: Operation) => fillPath(op.path, Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, ANY_ID])));

describeEachDialect('settings operations and roles', (ctx) => {
  it('answer 403 to an agent, by key or by session, for every settings operation', async () => {
    const { a, services, client } = ctx();
    const operations = await settingsOperations(a.api);
    assert.ok(operations.length >= 16, `settings operations found: ${operations.map((op) => op.operationId).join(', ')}`);
    const agent = await newPerson(ctx(), a);
    const agentKey = await services.admin.createKey({ workspaceId: a.id, memberId: agent.member.id });
    const problems: string[] = [];
    for (const op of operations) {
      for (const [who, api] of [['agent key', client(agentKey.key)], ['agent session', agent.app]] as const) {
        const res = await api.request(op.method, urlOf(op), { body: op.body ? {} : undefined });
        if (res.status !== 403 || res.body.error_code !== 'forbidden') problems.push(`${op.method} ${op.path} (${who}): ${res.status}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('let admins, owners and keys without a member through (any answer but 403)', async () => {
    const { a, client } = ctx();
    const operations = await settingsOperations(a.api);
    const admin = await newPerson(ctx(), a, 'admin');
    const problems: string[] = [];
    for (const op of operations) {
      for (const [who, api] of [['admin session', admin.app], ['owner key', a.api], ['memberless key', client(a.memberlessKey)]] as const) {
        const res = await api.request(op.method, urlOf(op), { body: op.body ? {} : undefined });
        if (res.status === 403) problems.push(`${op.method} ${op.path} (${who}): ${res.text}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('keep read-only keys to GET', async () => {
    const { a, client } = ctx();
    const readOnly = client(a.readOnlyKey);
    for (const op of await settingsOperations(a.api)) {
      const res = await readOnly.request(op.method, urlOf(op), { body: op.body ? {} : undefined });
      if (op.method === 'GET') assert.notEqual(res.status, 403, `${op.method} ${op.path}`);
      else assert.equal(res.status, 403, `${op.method} ${op.path}`);
    }
  });

  it('leave the member list to everyone: agents need it to assign issues', async () => {
    const agent = await newPerson(ctx(), ctx().a);
    assert.equal((await agent.app.get('/api/v1/members')).status, 200);
  });
});
