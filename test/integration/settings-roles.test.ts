// docs/accounts.md: every settings operation (webhooks, members, invitations, API keys,
// identity secrets, changes to saved replies, calendars and SLA policies) answers 403 to an agent, by key or by session, before any lookup or
// validation; read-only keys stay GET-only. The operations are read from openapi.json, so a new
// settings route is covered without touching this file. A product's security settings
// (widget_config, domain) are settings too, while its other fields stay open to agents.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createProduct } from '../helpers/factories.js';
import { describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';
import { fillPath, operationsOf, type Operation } from '../helpers/openapi-operations.js';
import { newPerson } from '../helpers/sessions.js';

const SETTINGS_TAGS = new Set(['Webhooks', 'Members', 'API keys']);
/** Tags whose reads are everyone's and whose writes are settings (docs/inbox.md, docs/service-levels.md). */
const SETTINGS_WRITE_TAGS = new Set(['Saved replies', 'Calendars', 'SLA policies']);
const isSettings = (op: Operation & { tags?: string[] }) =>
  op.path.startsWith('/api/v1/') && (
    op.tags?.some((tag) => SETTINGS_TAGS.has(tag) || (SETTINGS_WRITE_TAGS.has(tag) && op.method !== 'GET')) || /identity-secret/.test(op.path)
  );

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

/** Every kind of caller of a product's settings: agents by key and by session, and those with the settings role. */
async function callers(context: TestContext): Promise<{ agents: [string, Client][]; settings: [string, Client][] }> {
  const { a, services, client } = context;
  const agent = await newPerson(context, a);
  const agentKey = await services.admin.createKey({ workspaceId: a.id, memberId: agent.member.id });
  const admin = await newPerson(context, a, 'admin');
  return {
    agents: [['agent key', client(agentKey.key)], ['agent session', agent.app]],
    settings: [['admin session', admin.app], ['owner key', a.api], ['integration key', client(a.memberlessKey)]],
  };
}

const SECURITY_CHANGES: Record<string, unknown>[] = [
  { widget_config: { proof_of_work: false } },
  { widget_config: { require_identity: false, enabled: true } },
  { widget_config: { color: '#ff0000' } },
  { widget_config: null },
  { domain: 'evil.example' },
  { domain: null },
  { name: 'Renamed too', widget_config: { enabled: false } },
];

describeEachDialect('a product\'s security settings (widget_config, domain)', (ctx) => {
  const guarded = () => createProduct(ctx().a.api, { widget_config: { require_identity: true, proof_of_work: true }, domain: 'shop.example' });

  it('are refused to an agent, by key or by session (403 forbidden), and nothing of that PATCH is written', async () => {
    const { agents } = await callers(ctx());
    const product = await guarded();
    for (const [who, api] of agents) {
      for (const body of SECURITY_CHANGES) {
        const res = await api.patch(`/api/v1/products/${product.id}`, body);
        assert.equal(res.status, 403, `${who} ${JSON.stringify(body)}: ${res.text}`);
        assert.equal(res.body.error_code, 'forbidden');
        assert.match(res.body.detail, /widget_config and domain need an owner or admin/);
      }
    }
    assert.deepEqual((await ctx().a.api.get(`/api/v1/products/${product.id}`)).body.data, product);
  });

  it('leave agents the other fields, also when a PATCH sends the stored settings back unchanged', async () => {
    const { agents } = await callers(ctx());
    const product = await guarded();
    for (const [who, api] of agents) {
      const renamed = await api.patch(`/api/v1/products/${product.id}`, { name: `${who} renamed` });
      assert.equal(renamed.status, 200, renamed.text);
      const current = (await api.get(`/api/v1/products/${product.id}`)).body.data;
      const echoed = await api.patch(`/api/v1/products/${product.id}`, {
        name: `${who} again`, slug: `${who.replace(' ', '-')}-slug`, widget_config: current.widget_config, domain: current.domain,
      });
      assert.equal(echoed.status, 200, `${who}: ${echoed.text}`);
      assert.deepEqual(echoed.body.data.widget_config, product.widget_config);
    }
  });

  it('are refused to an agent creating a product with them, who may create one with the defaults', async () => {
    const { agents } = await callers(ctx());
    for (const [who, api] of agents) {
      for (const body of [{ widget_config: { proof_of_work: false } }, { widget_config: {} }, { domain: 'shop.example' }]) {
        const res = await api.post('/api/v1/products', { name: `${who} product`, ...body });
        assert.equal(res.status, 403, `${who} ${JSON.stringify(body)}: ${res.text}`);
      }
      const plain = await api.post('/api/v1/products', { name: `${who} plain`, widget_config: null, domain: null });
      assert.equal(plain.status, 201, plain.text);
    }
  });

  it('are changed by admins, owners and keys without a member, on PATCH and on create', async () => {
    const { settings } = await callers(ctx());
    for (const [who, api] of settings) {
      const product = await guarded();
      for (const body of SECURITY_CHANGES) {
        const res = await api.patch(`/api/v1/products/${product.id}`, body);
        assert.equal(res.status, 200, `${who} ${JSON.stringify(body)}: ${res.text}`);
      }
      const made = await api.post('/api/v1/products', { name: `${who} product`, widget_config: { proof_of_work: false }, domain: 'shop.example' });
      assert.equal(made.status, 201, made.text);
    }
  });
});
