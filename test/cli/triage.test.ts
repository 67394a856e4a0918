// ldk triage …: the triage queue, accepting (with edits, or another issue by shortcode) and dismissing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createIssue, createProduct, importConversation } from '../helpers/factories.js';
import { type ListeningContext, listeningContext, type Shell } from '../helpers/ldk.js';
import { CSV_ISSUE, CSV_REPEAT, UNRELATED } from '../helpers/triage.js';

describe('ldk triage', () => {
  let server: ListeningContext;
  let shell: Shell;
  let product: any;
  let csv: any;
  const triaged = async (text: { title: string; body: string }) => {
    const conversation = await importConversation(server.a.api, product.id, text);
    return (await server.a.api.post(`/api/v1/conversations/${conversation.id}/triage`)).body.data.at(-1);
  };
  before(async () => {
    server = await listeningContext('sqlite');
    product = await createProduct(server.a.api, { issue_prefix: 'TRI' });
    csv = await createIssue(server.a.api, product.id, CSV_ISSUE);
    shell = server.shell(server.a.key);
    await shell.text('init', '--product', product.id);
  });
  after(() => server.close());

  it('list: the open suggestions of the folder\'s product, oldest first, with what each suggests', async () => {
    const link = await triaged(CSV_REPEAT);
    const create = await triaged(UNRELATED);
    const out = await shell.text('triage', 'list');
    assert.match(out, /^SUGGESTION +STATUS +SCORE +CONVERSATION +CREATED +SUGGESTS$/m);
    assert.match(out, new RegExp(`^${link.id}  open +1\\.00 +${link.conversation_id}  just now +link to TRI-1 ${CSV_ISSUE.title}$`, 'm'));
    assert.match(out, new RegExp(`^${create.id}  open +0\\.\\d\\d +${create.conversation_id}  just now +create "${UNRELATED.title}"$`, 'm'));
    assert.ok(out.indexOf(link.id) < out.indexOf(create.id));
    assert.deepEqual(await shell.json('triage', 'list', '--kind', 'create'), (await server.a.api.get(`/api/v1/suggestions?product_id=${product.id}&kind=create`)).body);
    const ofConversation = await shell.json('triage', 'list', '--conversation', link.conversation_id);
    assert.deepEqual(ofConversation.data.map((suggestion: any) => suggestion.id), [link.id]);
    assert.equal((await shell.run('triage', 'list', '--status', 'closed')).code, 2);
  });

  it('accept: links the conversation, or creates the drafted issue with the edits given', async () => {
    const link = await triaged(CSV_REPEAT);
    assert.equal(await shell.text('triage', 'accept', link.id), `Linked the conversation to TRI-1 "${CSV_ISSUE.title}".\n`);
    const create = await triaged(UNRELATED);
    const out = await shell.text('triage', 'accept', create.id, '--title', 'Invoices show USD', '--priority', 'high');
    assert.match(out, /^Created TRI-\d+ "Invoices show USD" from the conversation\.\n$/);
    const issue = (await server.a.api.get(`/api/v1/issues/${out.match(/TRI-\d+/)![0]}`)).body.data;
    assert.deepEqual([issue.priority, issue.is_ai_generated], ['high', true]);
    assert.equal((await shell.run('triage', 'accept', create.id, '--priority', 'High')).code, 2);
  });

  it('accept --issue links another issue, named by its shortcode', async () => {
    const other = await createIssue(server.a.api, product.id, { title: 'CSV exports' });
    const link = await triaged(CSV_REPEAT);
    const body = await shell.json('triage', 'accept', link.id, '--issue', other.shortcode.toLowerCase());
    assert.deepEqual([body.data.status, body.data.issue.id], ['accepted', other.id]);
    assert.notEqual(csv.id, other.id);
  });

  it('dismiss: dismisses; a second time is the API\'s error on stderr, exit 1', async () => {
    const suggestion = await triaged(UNRELATED);
    assert.equal(await shell.text('triage', 'dismiss', suggestion.id), `Dismissed: create "${UNRELATED.title}".\n`);
    const again = await shell.run('triage', 'dismiss', suggestion.id);
    assert.deepEqual(again, { code: 1, stdout: '', stderr: 'error: suggestion is already dismissed\n' });
  });
});
