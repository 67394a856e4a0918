// ldk macros list|run: the workspace's macros as a table, and a macro run on a conversation (by the
// macro's id or exact name), printing the conversation after; --json is the API's answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMacro } from '../helpers/automation.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { type ListeningContext, listeningContext, type Shell } from '../helpers/ldk.js';

describe('ldk macros', () => {
  let server: ListeningContext;
  let shell: Shell;
  let product: any;
  before(async () => {
    server = await listeningContext('sqlite');
    shell = server.shell(server.a.key);
    product = await createProduct(server.a.api, { name: 'Macros CLI' });
  });
  after(() => server.close());

  it('macros list prints each macro with its actions; --json is the API\'s page', async () => {
    const macro = await createMacro(server.a.api, {
      name: 'Close as duplicate', actions: [{ type: 'add_tags', tags: ['duplicate', 'seen'] }, { type: 'set_status', status: 'resolved' }],
    });
    const out = await shell.text('macros', 'list');
    assert.match(out, /^MACRO +NAME +ACTIONS\n/);
    assert.match(out, new RegExp(`\\n${macro.id} +Close as duplicate +add_tags duplicate, seen; set_status resolved\\n`));
    assert.deepEqual(await shell.json('macros', 'list', '--limit', '5'), (await server.a.api.get('/api/v1/macros?limit=5')).body);
    assert.equal((await shell.run('macros', 'list', '--limit', '0')).code, 2);
  });

  it('macros run by exact name runs every action and prints the conversation after', async () => {
    await createMacro(server.a.api, { name: 'Escalate', actions: [{ type: 'set_priority', priority: 'urgent' }, { type: 'add_tags', tags: ['escalated'] }] });
    const conversation = await importConversation(server.a.api, product.id, { title: 'Refund stuck', body: 'Where is my refund?' });
    const out = await shell.text('macros', 'run', conversation.id, 'Escalate');
    assert.match(out, /^Ran the macro on the conversation; it is now:\n\nRefund stuck\n/);
    assert.match(out, /\npriority +urgent\n/);
    assert.match(out, /\ntags +escalated\n/);
    assert.match(out, /Where is my refund\?/);
  });

  it('macros run by id --json prints the API\'s answer: the conversation after', async () => {
    const macro = await createMacro(server.a.api, { actions: [{ type: 'assign', member_id: server.a.owner.id }, { type: 'add_note', body: 'Taken.' }] });
    const conversation = await importConversation(server.a.api, product.id, { body: 'Hello' });
    const body = await shell.json('macros', 'run', conversation.id, macro.id);
    assert.equal(body.data.id, conversation.id);
    assert.equal(body.data.assignee_id, server.a.owner.id);
    assert.deepEqual(body, (await server.a.api.get(`/api/v1/conversations/${conversation.id}`)).body);
  });

  it('an unknown name, a name two macros share, or an unknown conversation fails with one line on stderr', async () => {
    const conversation = await importConversation(server.a.api, product.id, { body: 'Hi' });
    const unknown = await shell.run('macros', 'run', conversation.id, 'No such macro');
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, 'error: no macro named "No such macro" (ldk macros list shows them)\n');
    const [first, second] = [await createMacro(server.a.api, { name: 'Twin' }), await createMacro(server.a.api, { name: 'Twin' })];
    const twins = await shell.run('macros', 'run', conversation.id, 'Twin');
    assert.equal(twins.code, 1);
    assert.equal(twins.stderr, `error: 2 macros are named "Twin": pass one's id (${first.id}, ${second.id})\n`);
    const missing = await shell.run('macros', 'run', '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', first.id, '--json');
    assert.equal(missing.code, 1);
    assert.equal(JSON.parse(missing.stdout).error_code, 'not_found');
    assert.match(missing.stderr, /^error: .+\n$/);
  });
});
