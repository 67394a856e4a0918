// Automation rules across server processes sharing one PostgreSQL database (docs/automation.md,
// "How rules run"): each process keeps its workspaces' rules in memory under the rule set's
// version, which every rule write moves, so a rule saved through one process is the one every
// process runs from the next event on, whichever process runs the event's job.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { eventually } from '../helpers/events.js';
import { apiData as api, startServer } from '../helpers/server-process.js';

/** Conversations created per version of the rule, through each process in turn (both processes' dispatchers run their jobs). */
const PER_ROUND = 6;

describe('automation rules saved through one process, run by another on PostgreSQL', { skip: !DIALECTS.includes('postgres') && 'PostgreSQL is not part of this run' }, () => {
  it('every conversation created after a rule is saved through either process gets that version of it', async (t) => {
    const databaseUrl = await freshDatabaseUrl('postgres');
    const first = await startServer({ databaseUrl, firstStart: true });
    t.after(() => first.kill('SIGKILL'));
    const second = await startServer({ databaseUrl });
    t.after(() => second.kill('SIGKILL'));
    const servers = [first, second];
    const key = first.bootstrapKey()!;
    const product = await api(first, key, 'POST', '/api/v1/products', { name: 'Acme' });
    const rule = await api(first, key, 'POST', '/api/v1/automation-rules', {
      name: 'Tag', event: 'conversation.created', conditions: [{ field: 'product_id', operator: 'equals', value: product.id }], actions: [{ type: 'add_tags', tags: ['v0'] }],
    });
    const tagsOf = async (id: string): Promise<string[]> => (await api(first, key, 'GET', `/api/v1/conversations/${id}`)).tags;
    for (let round = 0; round < 4; round++) {
      // Saved through each process in turn; the conversations after it, through both.
      if (round > 0) await api(servers[round % 2], key, 'PATCH', `/api/v1/automation-rules/${rule.id}`, { actions: [{ type: 'add_tags', tags: [`v${round}`] }] });
      const created = [];
      for (let i = 0; i < PER_ROUND; i++) created.push(await api(servers[i % 2], key, 'POST', '/api/v1/conversations', { product_id: product.id, title: `Round ${round}, ${i}`, body: 'Hello' }));
      for (const conversation of created) {
        const tags = await eventually(() => tagsOf(conversation.id), (now) => now.length > 0, `conversation ${conversation.id} tagged`);
        assert.deepEqual(tags, [`v${round}`], `round ${round}`);
      }
    }
    // Deactivated through the second process: neither process runs it any more; a new rule saved through the first runs at once.
    await api(second, key, 'PATCH', `/api/v1/automation-rules/${rule.id}`, { active: false });
    await api(first, key, 'POST', '/api/v1/automation-rules', {
      name: 'Last', event: 'conversation.created', conditions: [{ field: 'product_id', operator: 'equals', value: product.id }], actions: [{ type: 'add_tags', tags: ['last'] }],
    });
    for (let i = 0; i < PER_ROUND; i++) {
      const conversation = await api(servers[i % 2], key, 'POST', '/api/v1/conversations', { product_id: product.id, title: `Last ${i}`, body: 'Hello' });
      assert.deepEqual(await eventually(() => tagsOf(conversation.id), (now) => now.length > 0, `conversation ${conversation.id} tagged`), ['last']);
    }
    assert.equal((await api(first, key, 'GET', `/api/v1/automation-rules/${rule.id}`)).runs, 4 * PER_ROUND);
  });
});
