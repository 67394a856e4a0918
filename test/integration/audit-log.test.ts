// The audit log (docs/audit-log.md): each settings write, sign-in, contact export and erasure, and
// backup records one entry in its own transaction, secrets redacted; GET /api/v1/audit-log and its
// CSV read them (settings role, read-only keys included); nothing changes or deletes one;
// housekeeping purges old ones.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { auditLogRepository } from '../../src/db/repositories/audit/audit-log.repository.js';
import { workspaceRepository } from '../../src/db/repositories/workspace.repository.js';
import { recordBackup, REDACTED, SYSTEM_ACTOR } from '../../src/domain/audit/audit-log.js';
import { createHousekeeping } from '../../src/domain/housekeeping/housekeeping.js';
import { inTransaction } from '../../src/domain/shared/unit-of-work.js';
import { loadConfig } from '../../src/config.js';
import { retentionRepository } from '../../src/db/repositories/retention.repository.js';
import { apiKeyIdOf, createProduct, importConversation, invite, sessionCookieOf } from '../helpers/factories.js';
import { describeEachDialect, unique, type Client, type TestContext } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { newPerson, signIn } from '../helpers/sessions.js';

const DAY_MS = 24 * 3600_000;
const clock = manualClock();
const LOG = '/api/v1/audit-log';

/** The workspace's entries about one record, newest first. */
async function entriesOf(api: Client, targetId: string, query = ''): Promise<any[]> {
  const res = await api.get(`${LOG}?limit=200${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body.data.filter((entry: any) => entry.target_id === targetId);
}

/** The one entry about the record with this action: fails unless there is exactly one. */
async function onlyEntry(api: Client, targetId: string, action: string): Promise<any> {
  const entries = (await entriesOf(api, targetId)).filter((entry) => entry.action === action);
  assert.equal(entries.length, 1, `one ${action} of ${targetId}, got ${JSON.stringify(entries)}`);
  return entries[0];
}

const created = async (res: Promise<any>) => {
  const answer = await res;
  assert.ok(answer.status === 201 || answer.status === 200, answer.text);
  return answer.body.data;
};

const ownerKeyActor = async (ctx: TestContext) => ({ type: 'api_key', id: await apiKeyIdOf(ctx.a.api), name: null });

/**
 * The writes of settings resources (and single sign-on's, once it exists) and the action each
 * records, as the tests below check them: a new settings write fails the first test until it
 * records its entry and is listed here.
 */
const AUDITED_OPERATIONS: Record<string, string> = {
  createProduct: 'product.created', updateProduct: 'product.updated', rotateProductIdentitySecret: 'product.identity_secret_rotated',
  createAutomationRule: 'automation_rule.created', updateAutomationRule: 'automation_rule.updated', deleteAutomationRule: 'automation_rule.deleted',
  createCalendar: 'calendar.created', updateCalendar: 'calendar.updated', deleteCalendar: 'calendar.deleted',
  createSlaPolicy: 'sla_policy.created', updateSlaPolicy: 'sla_policy.updated', deleteSlaPolicy: 'sla_policy.deleted',
  createWebhook: 'webhook.created', updateWebhook: 'webhook.updated', deleteWebhook: 'webhook.deleted', rotateWebhookSecret: 'webhook.secret_rotated',
  createInvitation: 'invitation.created', deleteInvitation: 'invitation.withdrawn', updateMember: 'member.role_changed', deleteMember: 'member.removed',
  createApiKey: 'api_key.created', revokeApiKey: 'api_key.revoked', eraseContact: 'contact.erased',
  putSso: 'sso.updated', deleteSso: 'sso.deleted',
};
/** Writes under those paths that change no setting. */
const NOT_AUDITED = new Set(['retryWebhookDelivery']);
const SETTINGS_PATH = /^\/api\/v1\/(products|automation-rules|calendars|sla-policies|webhooks|members|api-keys|sso)(\/|$)/;

describeEachDialect('the audit log records every settings write', (ctx) => {
  it('covers every write of a settings resource in the served document', async () => {
    const document = (await ctx().a.api.get('/api/v1/openapi.json')).body;
    const writes = Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap(([path, operations]) => Object.entries(operations)
        .filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method) && SETTINGS_PATH.test(path))
        .map(([, operation]) => operation.operationId))
      .filter((operationId) => !NOT_AUDITED.has(operationId));
    assert.deepEqual([...writes, 'eraseContact'].sort(), Object.keys(AUDITED_OPERATIONS).sort());
  });

  it('API keys: created and revoked by a session, named as its member, with the request\'s ip and user agent', async () => {
    const admin = await newPerson(ctx(), ctx().a, 'admin');
    const key = await created(admin.app.post('/api/v1/api-keys', { label: 'CI' }, { headers: { 'user-agent': 'audit-test/1' } }));
    const entry = await onlyEntry(ctx().a.api, key.id, 'api_key.created');
    assert.deepEqual(entry.actor, { type: 'member', id: admin.member.id, name: admin.member.display_name });
    assert.deepEqual([entry.target_type, entry.changes, entry.user_agent], ['api_key', null, 'audit-test/1']);
    assert.ok(entry.ip, 'the client address');
    assert.equal((await admin.app.delete(`/api/v1/api-keys/${key.id}`)).status, 204);
    await onlyEntry(ctx().a.api, key.id, 'api_key.revoked');
    assert.ok(!JSON.stringify(await entriesOf(ctx().a.api, key.id)).includes(key.key), 'never the key');
  });

  it('API keys: created and revoked by the administrator (loopdesk key create/revoke) are the system\'s, once', async () => {
    const { a, services } = ctx();
    const key = await services.admin.createKey({ workspaceId: a.id, label: 'From the shell' });
    assert.deepEqual((await onlyEntry(a.api, key.id, 'api_key.created')).actor, SYSTEM_ACTOR);
    const revoked = await services.admin.revokeKey(key.id);
    assert.deepEqual(await services.admin.revokeKey(key.id), revoked, 'revoking again keeps the first time');
    assert.deepEqual((await onlyEntry(a.api, key.id, 'api_key.revoked')).actor, SYSTEM_ACTOR);
  });

  it('an API key acts as { type: api_key, id, name: its label }', async () => {
    const made = await created(ctx().a.api.post('/api/v1/api-keys', { label: 'Deploy bot' }));
    const bot = ctx().client(made.key);
    const hook = await created(bot.post('/api/v1/webhooks', { url: 'https://hooks.example.com/audit-actor', events: ['*'] }));
    assert.deepEqual((await onlyEntry(ctx().a.api, hook.id, 'webhook.created')).actor, { type: 'api_key', id: made.id, name: 'Deploy bot' });
  });

  it('members and invitations: invited, joined, role changed, removed, withdrawn', async () => {
    const { a } = ctx();
    const invitation = await invite(a.api, { role: 'agent' });
    assert.deepEqual((await onlyEntry(a.api, invitation.id, 'invitation.created')).actor, await ownerKeyActor(ctx()));
    const joined = await ctx().client(null).post(`/auth/invitations/${invitation.token}`, { name: 'Grace', password: 'correct horse battery' });
    assert.equal(joined.status, 200, joined.text);
    const member = joined.body.data.member;
    assert.deepEqual((await onlyEntry(a.api, member.id, 'member.joined')).actor, { type: 'member', id: member.id, name: 'Grace' });

    assert.equal((await a.api.patch(`/api/v1/members/${member.id}`, { role: 'admin' })).status, 200);
    assert.deepEqual((await onlyEntry(a.api, member.id, 'member.role_changed')).changes, { role: ['agent', 'admin'] });
    assert.equal((await a.api.patch(`/api/v1/members/${member.id}`, { role: 'admin' })).status, 200);
    await onlyEntry(a.api, member.id, 'member.role_changed');
    assert.equal((await a.api.delete(`/api/v1/members/${member.id}`)).status, 204);
    await onlyEntry(a.api, member.id, 'member.removed');

    const withdrawn = await invite(a.api);
    assert.equal((await a.api.delete(`/api/v1/members/invitations/${withdrawn.id}`)).status, 204);
    await onlyEntry(a.api, withdrawn.id, 'invitation.withdrawn');
  });

  it('webhooks: the changed fields only as [before, after]; a rotated secret redacted', async () => {
    const { api } = ctx().a;
    const hook = await created(api.post('/api/v1/webhooks', { url: 'https://hooks.example.com/audit', events: ['*'] }));
    assert.equal((await onlyEntry(api, hook.id, 'webhook.created')).changes, null);
    assert.equal((await api.patch(`/api/v1/webhooks/${hook.id}`, { description: 'Sync', enabled: true, url: hook.url })).status, 200);
    assert.deepEqual((await onlyEntry(api, hook.id, 'webhook.updated')).changes, { description: [null, 'Sync'] });
    assert.equal((await api.patch(`/api/v1/webhooks/${hook.id}`, { description: 'Sync' })).status, 200);
    await onlyEntry(api, hook.id, 'webhook.updated');
    const rotated = await created(api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`, {}));
    assert.deepEqual((await onlyEntry(api, hook.id, 'webhook.secret_rotated')).changes, { secret: [REDACTED, REDACTED] });
    const text = JSON.stringify(await entriesOf(api, hook.id));
    assert.ok(!text.includes(rotated.secret) && !text.includes(hook.secret), 'never a secret');
    assert.equal((await api.delete(`/api/v1/webhooks/${hook.id}`)).status, 204);
    await onlyEntry(api, hook.id, 'webhook.deleted');
  });

  it('products: created, each changed field (security settings too), the identity secret redacted', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    await onlyEntry(api, product.id, 'product.created');
    const name = unique('Renamed');
    assert.equal((await api.patch(`/api/v1/products/${product.id}`, { name, domain: 'app.example.com' })).status, 200);
    assert.deepEqual((await onlyEntry(api, product.id, 'product.updated')).changes, { name: [product.name, name], domain: [null, 'app.example.com'] });
    const secret = await created(api.post(`/api/v1/products/${product.id}/identity-secret`, {}));
    assert.deepEqual((await onlyEntry(api, product.id, 'product.identity_secret_rotated')).changes, { identity_secret: [REDACTED, REDACTED] });
    assert.ok(!JSON.stringify(await entriesOf(api, product.id)).includes(secret.identity_secret));
  });

  it('calendars, SLA policies and automation rules: created, updated with their changes, deleted', async () => {
    const { api } = ctx().a;
    const calendar = await created(api.post('/api/v1/calendars', { name: unique('Office'), timezone: 'Europe/Berlin', hours: { mon: [['09:00', '17:00']] } }));
    await onlyEntry(api, calendar.id, 'calendar.created');
    assert.equal((await api.patch(`/api/v1/calendars/${calendar.id}`, { timezone: 'Europe/Paris' })).status, 200);
    assert.deepEqual((await onlyEntry(api, calendar.id, 'calendar.updated')).changes, { timezone: ['Europe/Berlin', 'Europe/Paris'] });

    const policy = await created(api.post('/api/v1/sla-policies', { name: unique('Policy'), first_response_seconds: 3600 }));
    await onlyEntry(api, policy.id, 'sla_policy.created');
    assert.equal((await api.patch(`/api/v1/sla-policies/${policy.id}`, { first_response_seconds: 1800, calendar_id: calendar.id })).status, 200);
    assert.deepEqual((await onlyEntry(api, policy.id, 'sla_policy.updated')).changes, { first_response_seconds: [3600, 1800], calendar_id: [null, calendar.id] });
    assert.equal((await api.delete(`/api/v1/sla-policies/${policy.id}`)).status, 204);
    await onlyEntry(api, policy.id, 'sla_policy.deleted');
    assert.equal((await api.delete(`/api/v1/calendars/${calendar.id}`)).status, 204);
    await onlyEntry(api, calendar.id, 'calendar.deleted');

    const rule = await created(api.post('/api/v1/automation-rules', {
      name: unique('Rule'), event: 'conversation.created', actions: [{ type: 'set_priority', priority: 'high' }],
    }));
    await onlyEntry(api, rule.id, 'automation_rule.created');
    assert.equal((await api.patch(`/api/v1/automation-rules/${rule.id}`, { active: false })).status, 200);
    assert.deepEqual((await onlyEntry(api, rule.id, 'automation_rule.updated')).changes, { active: [true, false] });
    assert.equal((await api.delete(`/api/v1/automation-rules/${rule.id}`)).status, 204);
    await onlyEntry(api, rule.id, 'automation_rule.deleted');
  });

  it('contacts: an export (a read-only key may make one) and an erasure', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const conversation = await importConversation(a.api, product.id, { contact: { name: 'Erin', email: `${unique('erin').replace(/\W/g, '')}@example.com` } });
    const contactId = conversation.contact.id;
    assert.equal((await ctx().client(a.readOnlyKey).get(`/api/v1/contacts/${contactId}/export`)).status, 200);
    assert.equal((await onlyEntry(a.api, contactId, 'contact.exported')).actor.type, 'api_key');
    assert.equal((await a.api.delete(`/api/v1/contacts/${contactId}`)).status, 204);
    await onlyEntry(a.api, contactId, 'contact.erased');
  });

  it('a refused or failed write records nothing', async () => {
    const { a } = ctx();
    const agent = await newPerson(ctx(), a);
    const before = (await a.api.get(LOG)).body.pagination.total;
    assert.equal((await agent.app.post('/api/v1/webhooks', { url: 'https://hooks.example.com/no', events: ['*'] })).status, 403);
    assert.equal((await a.api.post('/api/v1/webhooks', { url: 'http://127.0.0.1/hook', events: ['*'] })).status, 400);
    assert.equal((await a.api.patch(`/api/v1/members/${a.owner.id}`, { role: 'agent' })).status, 403, 'the last owner');
    assert.equal((await a.api.post('/api/v1/sla-policies', { name: 'x' })).status, 400);
    assert.equal((await a.api.get(LOG)).body.pagination.total, before);
  });

  it('is written in the write\'s transaction: rolled back with it', async () => {
    const { a, services, database } = ctx();
    const target = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0001';
    await assert.rejects(inTransaction(database.db, async (work) => {
      await services.audit.record(work, { actor: SYSTEM_ACTOR, workspaceId: a.id, action: 'backup.created', target_type: 'backup', target_id: target });
      throw new Error('the write fails after its entry');
    }), /the write fails/);
    assert.deepEqual(await entriesOf(a.api, target), []);
  });

  it('a backup records backup.created by the system in every workspace', async () => {
    const { a, b, services, database } = ctx();
    await recordBackup({ db: database.db, audit: services.audit, workspaces: workspaceRepository(database.db) });
    for (const workspace of [a, b]) {
      const [entry] = (await workspace.api.get(`${LOG}?action=backup.created&limit=1`)).body.data;
      assert.deepEqual([entry.actor, entry.target_type, entry.target_id, entry.ip], [SYSTEM_ACTOR, 'backup', null, null]);
    }
  });
});

describeEachDialect('the audit log records sign-ins', (ctx) => {
  it('a sign-in, a failure and a password change, named as the member, from where they came', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const ok = await signIn(ctx(), { email: person.email, password: person.password });
    assert.equal(ok.status, 200);
    const signedIn = await onlyEntry(ctx().a.api, person.member.id, 'auth.signed_in');
    assert.deepEqual([signedIn.actor.id, signedIn.target_type], [person.member.id, 'member']);
    assert.equal((await signIn(ctx(), { email: person.email, password: 'wrong password' })).status, 401);
    await onlyEntry(ctx().a.api, person.member.id, 'auth.sign_in_failed');
    const cookie = sessionCookieOf(ok);
    const change = await ctx().client(null, { cookie, origin: 'http://localhost' })
      .post('/auth/password', { current_password: person.password, new_password: 'another long password' });
    assert.equal(change.status, 204, change.text);
    assert.deepEqual((await onlyEntry(ctx().a.api, person.member.id, 'auth.password_changed')).changes, { password: [REDACTED, REDACTED] });
    assert.ok(!JSON.stringify(await entriesOf(ctx().a.api, person.member.id)).includes('another long password'));
  });

  it('records the lockout once, when the 10th failure starts it; refused attempts add nothing', async () => {
    const person = await newPerson(ctx(), ctx().a);
    for (let i = 0; i < 10; i++) assert.equal((await signIn(ctx(), { email: person.email, password: 'wrong password' })).status, 401);
    assert.equal((await signIn(ctx(), { email: person.email, password: person.password })).status, 429);
    const entries = await entriesOf(ctx().a.api, person.member.id);
    assert.equal(entries.filter((entry) => entry.action === 'auth.sign_in_failed').length, 10);
    assert.equal(entries.filter((entry) => entry.action === 'auth.locked_out').length, 1);
    clock.advance(30 * 60_000);
  });

  it('records a failure of an unknown email nowhere, and a member\'s only in their workspaces', async () => {
    const before = [(await ctx().a.api.get(LOG)).body.pagination.total, (await ctx().b.api.get(LOG)).body.pagination.total];
    assert.equal((await signIn(ctx(), { email: 'nobody@example.com', password: 'wrong password' })).status, 401);
    const person = await newPerson(ctx(), ctx().a);
    assert.equal((await signIn(ctx(), { email: person.email, password: 'wrong password' })).status, 401);
    assert.equal((await ctx().b.api.get(LOG)).body.pagination.total, before[1]);
    assert.equal((await entriesOf(ctx().a.api, person.member.id, '&action=auth.sign_in_failed')).length, 1);
  });
}, { clock });

describeEachDialect('GET /api/v1/audit-log', (ctx) => {
  it('lists newest first with the list envelope, and filters by actor, action, target type and time', async () => {
    const { a } = ctx();
    const first = await createProduct(a.api);
    clock.advance(60_000);
    const admin = await newPerson(ctx(), a, 'admin');
    const second = await created(admin.app.post('/api/v1/products', { name: unique('Second') }));
    const all = await a.api.get(`${LOG}?action=product.created&limit=2`);
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.data.map((entry: any) => entry.target_id), [second.id, first.id]);
    assert.deepEqual(Object.keys(all.body.pagination).sort(), ['limit', 'offset', 'total']);

    const byAdmin = (await a.api.get(`${LOG}?actor_id=${admin.member.id.toUpperCase()}`)).body.data;
    assert.ok(byAdmin.length > 0 && byAdmin.every((entry: any) => entry.actor.id === admin.member.id));
    const products = (await a.api.get(`${LOG}?target_type=product,calendar`)).body.data;
    assert.ok(products.every((entry: any) => ['product', 'calendar'].includes(entry.target_type)));
    const since = new Date(Date.parse(clock.now()) - 1000).toISOString();
    const recent = (await a.api.get(`${LOG}?action=product.created&from=${since}`)).body.data.map((entry: any) => entry.target_id);
    assert.ok(recent.includes(second.id) && !recent.includes(first.id));
    const older = (await a.api.get(`${LOG}?action=product.created&to=${since}`)).body.data.map((entry: any) => entry.target_id);
    assert.ok(older.includes(first.id) && !older.includes(second.id));
  });

  for (const [query, field] of [
    ['action=member.exploded', 'action'], ['target_type=planet', 'target_type'], ['actor_id=nope', 'actor_id'],
    ['from=yesterday', 'from'], ['to=2026-13-01T00:00:00Z', 'to'], ['limit=201', 'limit'],
  ] as const) {
    it(`rejects ${query} naming ${field}`, async () => {
      const res = await ctx().a.api.get(`${LOG}?${query}`);
      assert.equal(res.status, 400, res.text);
      assert.ok(res.body.fields[field], res.text);
    });
  }

  it('needs the settings role: an agent gets 403; the owner\'s read-only key and an integration key read it', async () => {
    const agent = await newPerson(ctx(), ctx().a);
    assert.equal((await agent.app.get(LOG)).status, 403);
    assert.equal((await agent.app.get(`${LOG}.csv`)).status, 403);
    assert.equal((await ctx().client(ctx().a.readOnlyKey).get(LOG)).status, 200);
    assert.equal((await ctx().client(ctx().a.memberlessKey).get(LOG)).status, 200);
    assert.equal((await ctx().client(null).get(LOG)).status, 401);
  });

  it('shows a workspace its own entries only', async () => {
    const product = await createProduct(ctx().b.api);
    assert.deepEqual(await entriesOf(ctx().a.api, product.id), []);
    assert.equal((await entriesOf(ctx().b.api, product.id)).length, 1);
    assert.ok((await ctx().a.api.get(`${LOG}?actor_id=${ctx().b.owner.id}`)).body.data.length === 0);
  });

  it('has no way to change or delete an entry', async () => {
    const [entry] = (await ctx().a.api.get(`${LOG}?limit=1`)).body.data;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await ctx().a.api.request(method, LOG, { body: {} });
      assert.equal(res.status, 405, `${method} ${res.text}`);
      assert.match(String(res.headers.allow), /GET/);
      const one = await ctx().a.api.request(method, `${LOG}/${entry.id}`, { body: {} });
      assert.equal(one.status, 404, `${method} one entry`);
    }
    assert.deepEqual((await ctx().a.api.get(`${LOG}?limit=1`)).body.data[0], entry);
  });
}, { clock });

describeEachDialect('GET /api/v1/audit-log.csv', (ctx) => {
  it('streams RFC 4180 CSV, newest first, filtered, formula cells neutralised', async () => {
    const { a } = ctx();
    const admin = await newPerson(ctx(), a, 'admin');
    const key = await created(admin.app.post('/api/v1/api-keys', { label: 'x' }, { headers: { 'user-agent': '=HYPERLINK("http://evil.example","a, b")' } }));
    const res = await a.api.get(`${LOG}.csv?action=api_key.created`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.match(String(res.headers['content-disposition']), /attachment; filename="audit-log.csv"/);
    const lines = res.text.split('\r\n');
    assert.equal(lines[0], 'id,created_at,actor_type,actor_id,actor_name,action,target_type,target_id,changes,ip,user_agent');
    assert.equal(lines.at(-1), '', 'every record ends with CRLF');
    const listed = (await a.api.get(`${LOG}?action=api_key.created&limit=200`)).body;
    assert.equal(lines.length - 2, listed.pagination.total);
    assert.ok(lines[1].startsWith(`${listed.data[0].id},`), 'newest first');
    const row = lines.find((line) => line.includes(key.id))!;
    assert.ok(row.endsWith(',"\'=HYPERLINK(""http://evil.example"",""a, b"")"'), row);
  });

  it('streams more entries than one batch, each once', async () => {
    const { b, services } = ctx();
    const entries = Array.from({ length: 1203 }, (_, i) => ({
      actor: SYSTEM_ACTOR, workspaceId: b.id, action: 'backup.created' as const, target_type: 'backup' as const, target_id: `bulk-${i}`,
    }));
    await inTransaction(ctx().database.db, (work) => services.audit.record(work, ...entries));
    const res = await b.api.get(`${LOG}.csv?action=backup.created`);
    const ids = res.text.split('\r\n').slice(1, -1).map((line) => line.split(',')[0]);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.length >= 1203);
  });
}, { clock });

describeEachDialect('audit log retention', (ctx) => {
  it('reads LOOPDESK_AUDIT_RETENTION_DAYS: 365 by default, 0 for forever', () => {
    assert.equal(loadConfig({}).auditRetentionDays, 365);
    assert.equal(loadConfig({ LOOPDESK_AUDIT_RETENTION_DAYS: '0' }).auditRetentionDays, 0);
    assert.throws(() => loadConfig({ LOOPDESK_AUDIT_RETENTION_DAYS: '-1' }));
  });

  it('housekeeping purges entries older than the retention, and only those', async () => {
    const { a, database } = ctx();
    const old = await createProduct(a.api);
    clock.advance(300 * DAY_MS);
    const recent = await createProduct(a.api);
    clock.advance(100 * DAY_MS);
    const housekeeping = createHousekeeping({
      clock, retention: retentionRepository(database.db), signInFailures: { purgeBefore: async () => {} },
      auditEntries: auditLogRepository(database.db), auditRetentionDays: 365, eventRetentionDays: 0,
      refreshStatistics: async () => {}, onError: (error) => assert.fail(String(error)),
    });
    const report = await housekeeping.runOnce();
    assert.ok(report.audit_log >= 1);
    assert.deepEqual(await entriesOf(a.api, old.id), []);
    assert.equal((await entriesOf(a.api, recent.id)).length, 1);
  });
}, { clock });
