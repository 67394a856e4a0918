// Fair assignment across server processes sharing one PostgreSQL database (docs/automation.md,
// "Assignment"): 100 conversations arriving at once through 4 processes over 5 free members leave
// every member with 20 (round_robin) or any two within one (balanced): each choice is made under
// the product's assignment lock, which every process takes.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { apiData as api, startServer, type RunningServer } from '../helpers/server-process.js';

const PROCESSES = 4;
const AGENTS = 5;
const CONVERSATIONS = 100;

/** An agent who joined through an invitation: their member id. */
async function join(server: RunningServer, key: string, index: number): Promise<string> {
  const invitation = await api(server, key, 'POST', '/api/v1/members/invitations', { email: `agent${index}@example.com`, role: 'agent' });
  const token = new URL(invitation.url).pathname.split('/').pop();
  const res = await fetch(`${server.baseUrl}/auth/invitations/${token}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `Agent ${index}`, password: 'a long enough password' }),
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text).data.member.id;
}

async function spread(t: TestContext, mode: 'round_robin' | 'balanced'): Promise<number[]> {
  const databaseUrl = await freshDatabaseUrl('postgres');
  const first = await startServer({ databaseUrl, firstStart: true });
  t.after(() => first.kill('SIGKILL'));
  const others = await Promise.all(Array.from({ length: PROCESSES - 1 }, () => startServer({ databaseUrl })));
  t.after(() => others.forEach((server) => server.kill('SIGKILL')));
  const servers = [first, ...others];
  const key = first.bootstrapKey()!;
  const agents: string[] = [];
  for (let i = 0; i < AGENTS; i++) agents.push(await join(first, key, i));
  const product = await api(first, key, 'POST', '/api/v1/products', { name: 'Acme' });
  await api(first, key, 'PATCH', `/api/v1/products/${product.id}`, { assignment: { mode, capacity: null, member_ids: agents } });
  const created = await Promise.all(Array.from({ length: CONVERSATIONS }, (_, i) =>
    api(servers[i % PROCESSES], key, 'POST', '/api/v1/conversations', { product_id: product.id, title: `Help ${i}`, body: 'Anyone there?' })));
  const counts = new Map(agents.map((id) => [id, 0]));
  for (const conversation of created) {
    assert.ok(counts.has(conversation.assignee_id), `assigned to one of the agents: ${conversation.assignee_id}`);
    counts.set(conversation.assignee_id, counts.get(conversation.assignee_id)! + 1);
  }
  return [...counts.values()];
}

describe('fair assignment by several processes on PostgreSQL', { skip: !DIALECTS.includes('postgres') && 'PostgreSQL is not part of this run' }, () => {
  for (const mode of ['round_robin', 'balanced'] as const) {
    it(`${mode}: ${CONVERSATIONS} conversations at once through ${PROCESSES} processes over ${AGENTS} free agents, within one of even`, async (t) => {
      const counts = await spread(t, mode);
      assert.equal(counts.reduce((a, b) => a + b, 0), CONVERSATIONS);
      assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `counts ${counts.join(', ')}`);
    });
  }
});
