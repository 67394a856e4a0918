// ldk reports summary: the server's figures as a table, or its answer with --json.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createProduct, importConversation } from '../helpers/factories.js';
import { type ListeningContext, listeningContext, type Shell } from '../helpers/ldk.js';

describe('ldk reports summary', () => {
  let server: ListeningContext;
  let shell: Shell;
  before(async () => {
    server = await listeningContext('sqlite');
    shell = server.shell(server.a.key);
  });
  after(() => server.close());

  it('prints the figures as tables; --json is the API\'s answer, filters passed through', async () => {
    const product = await createProduct(server.a.api, { name: 'Reports CLI' });
    const conversation = await importConversation(server.a.api, product.id, { body: 'Hello' });
    assert.equal((await server.a.api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'Hi!' })).status, 201);
    const out = await shell.text('reports', 'summary', '--product', product.slug);
    assert.match(out, /^FIGURE +VALUE\nconversations created +1\nconversations resolved +0\nmessages received +1\nreplies sent +1\n/);
    assert.match(out, /\nCSAT +– positive of 0 ratings\nSLA hit rate +– \(0 hit, 0 missed of 0 targets\)\nself-served visitors +0 \(0 wrote after an article; 0 searches, 0 article views\)\n/);
    assert.match(out, /\nDURATION +COUNT +MEDIAN +P90 +AVERAGE\nfirst response +1 +\d+s +\d+s +\d+s\nnext response +0 +– +– +–\nresolution +0 +– +– +–\n/);
    const body = await shell.json('reports', 'summary', '--product', product.id, '--business-hours');
    assert.deepEqual(body, (await server.a.api.get(`/api/v1/reports/summary?product_id=${product.id}&business_hours=true`)).body);
    const bad = await shell.run('reports', 'summary', '--from', 'yesterday');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^error: .*from/);
  });
});
