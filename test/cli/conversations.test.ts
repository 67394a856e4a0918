// ldk conversation …: read, triage and reply, with a reply sent only when it is confirmed: on a
// terminal by answering yes, elsewhere by --yes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createProduct, importConversation } from '../helpers/factories.js';
import { type ListeningContext, listeningContext, type Shell } from '../helpers/ldk.js';

describe('ldk conversation', () => {
  let server: ListeningContext;
  let shell: Shell;
  let product: any;
  let conversation: any;
  before(async () => {
    server = await listeningContext('sqlite');
    product = await createProduct(server.a.api);
    conversation = await importConversation(server.a.api, product.id, {
      title: 'Checkout button does nothing', type: 'ticket', priority: 'high',
      contact: { name: 'Ana', email: 'ana@example.com' }, body: 'I tap Pay and nothing happens.',
    });
    await importConversation(server.a.api, product.id, { title: 'Please add dark mode', type: 'idea' });
    shell = server.shell(server.a.key);
    await shell.text('init', '--product', product.id);
  });
  after(() => server.close());

  const messageCount = async () => (await server.a.api.get(`/api/v1/conversations/${conversation.id}`)).body.data.messages.length;

  it('list: a table with contact and relative time; filters by status, type and priority', async () => {
    const out = await shell.text('conversation', 'list');
    assert.match(out, /^CONVERSATION +STATUS +PRIORITY +TYPE +CONTACT +UPDATED +TITLE$/m);
    assert.match(out, new RegExp(`^${conversation.id}  open +high +ticket +Ana <ana@example.com>  just now +Checkout button does nothing$`, 'm'));
    assert.match(out, /^Showing 1–2 of 2$/m);
    const ideas = await shell.json('conversation', 'list', '--type', 'idea,feedback');
    assert.deepEqual(ideas.data.map((item: any) => item.title), ['Please add dark mode']);
    const urgent = await shell.json('conversation', 'list', '--priority', 'urgent', '--status', 'open');
    assert.deepEqual(urgent, (await server.a.api.get(`/api/v1/conversations?product_id=${product.id}&priority=urgent&status=open`)).body);
  });

  it('show: the conversation and its messages, oldest first', async () => {
    const out = await shell.text('conversation', 'show', conversation.id);
    assert.match(out, /^Checkout button does nothing\n\nstatus +open\npriority +high\ntype +ticket\nchannel +imported\ncontact +Ana <ana@example.com>\n/);
    assert.match(out, /^Ana \(contact\) · just now\n {4}I tap Pay and nothing happens\.$/m);
    assert.deepEqual(await shell.json('conversation', 'show', conversation.id), (await server.a.api.get(`/api/v1/conversations/${conversation.id}`)).body);
  });

  it('update: status and priority; nothing to update is a usage error', async () => {
    assert.equal(await shell.text('conversation', 'update', conversation.id, '--status', 'in_progress'), 'Updated "Checkout button does nothing": in_progress, high.\n');
    assert.equal((await shell.json('conversation', 'update', conversation.id, '--priority', 'urgent')).data.priority, 'urgent');
    assert.equal((await shell.run('conversation', 'update', conversation.id)).code, 2);
  });

  it('update --snooze-until: snoozes until an instant, shown by show and the answer; none wakes it', async () => {
    const until = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
    assert.match(await shell.text('conversation', 'update', conversation.id, '--snooze-until', until), new RegExp(`, snoozed until ${until}\\.\n$`));
    assert.match(await shell.text('conversation', 'show', conversation.id), new RegExp(`^snoozed until +${until}$`, 'm'));
    assert.equal((await shell.json('conversation', 'update', conversation.id, '--snooze-until', 'none')).data.snoozed_until, null);
    const past = await shell.run('conversation', 'update', conversation.id, '--snooze-until', '2020-01-01T00:00:00Z');
    assert.equal(past.code, 1);
    assert.match(past.stderr, /snoozed_until/);
  });

  it('assign: a member, me or none, named in the answer; anything else is a usage error', async () => {
    assert.equal(await shell.text('conversation', 'assign', conversation.id, 'me'), 'Assigned "Checkout button does nothing" to Alpha Owner.\n');
    assert.equal((await shell.json('conversation', 'list', '--assignee', 'me')).data[0].id, conversation.id);
    assert.match(await shell.text('conversation', 'show', conversation.id), /^assignee +Alpha Owner$/m);
    assert.equal((await shell.json('conversation', 'assign', conversation.id, server.a.owner.id)).data.assignee_id, server.a.owner.id);
    assert.equal(await shell.text('conversation', 'assign', conversation.id, 'none'), 'Unassigned "Checkout button does nothing".\n');
    assert.equal((await shell.run('conversation', 'assign', conversation.id, 'someone')).code, 2);
  });

  it('note: an internal note, sent without confirmation, marked in show', async () => {
    const before = await messageCount();
    assert.match(await shell.text('conversation', 'note', conversation.id, 'Card declined twice per Stripe'), /^Noted \(message [0-9a-f-]{36}\); the team sees it, the customer does not\.\n$/);
    const body = await shell.json('conversation', 'note', conversation.id, 'Second note');
    assert.deepEqual([body.data.internal, body.data.body], [true, 'Second note']);
    assert.equal(await messageCount(), before + 2);
    assert.match(await shell.text('conversation', 'show', conversation.id), /^Alpha Owner \(internal note\) · just now\n {4}Card declined twice per Stripe$/m);
  });

  it('list --sort waiting: the longest waiting first', async () => {
    const waiting = await shell.json('conversation', 'list', '--sort', 'waiting');
    assert.deepEqual(waiting, (await server.a.api.get(`/api/v1/conversations?product_id=${product.id}&sort=waiting`)).body);
    assert.equal((await shell.run('conversation', 'list', '--sort', 'oldest')).code, 2);
  });

  it('reply, not on a terminal and without --yes: refuses, exit 1, sends nothing', async () => {
    const before = await messageCount();
    const result = await shell.run('conversation', 'reply', conversation.id, 'We are on it');
    assert.deepEqual(result, { code: 1, stdout: '', stderr: 'error: reply not sent: not on a terminal, so it cannot be confirmed; pass --yes to send it\n' });
    assert.equal(await messageCount(), before);
  });

  it('reply --yes sends, as the key\'s member; --json prints the message', async () => {
    assert.match(await shell.text('conversation', 'reply', conversation.id, 'Thanks, we are on it', '--yes'), /^Sent \(message [0-9a-f-]{36}\)\.\n$/);
    const body = await shell.json('conversation', 'reply', conversation.id, 'A fix ships tomorrow', '-y');
    assert.deepEqual({ sender_type: body.data.sender_type, sender_name: body.data.sender_name, body: body.data.body }, { sender_type: 'agent', sender_name: 'Alpha Owner', body: 'A fix ships tomorrow' });
  });

  it('reply on a terminal shows the text and its addressee, and sends on yes', async () => {
    const before = await messageCount();
    const result = await shell.onTerminal(['conversation', 'reply', conversation.id, 'Could you send a screenshot?'], { prompt: 'Send this reply? [y/N]', answer: 'y\n' });
    assert.equal(result.code, 0, result.stdout);
    assert.match(result.stdout, /To Ana <ana@example.com>, on "Checkout button does nothing":/);
    assert.match(result.stdout, / {4}Could you send a screenshot\?/);
    assert.match(result.stdout, /Sent \(message /);
    assert.equal(await messageCount(), before + 1);
  });

  it('reply on a terminal sends nothing unless the answer is yes (exit 1)', async () => {
    const before = await messageCount();
    const result = await shell.onTerminal(['conversation', 'reply', conversation.id, 'Never mind'], { prompt: 'Send this reply? [y/N]', answer: '\n' });
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stdout, /error: reply not sent/);
    assert.equal(await messageCount(), before);
  });

  it('a read-only key cannot reply: the API\'s detail, exit 1', async () => {
    const result = await server.shell(server.a.readOnlyKey).run('conversation', 'reply', conversation.id, 'Hello', '--yes');
    assert.equal(result.code, 1);
    assert.equal(result.stderr, 'error: this API key is read-only: only GET requests are allowed\n');
  });
});
