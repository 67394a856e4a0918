// Screenshots from the widget (docs/email.md): a visitor's image arrives in their conversation as
// a message of theirs with the image attached (the team downloads it from /api/v1); only PNG, JPEG,
// GIF and WebP by their bytes, whatever the declared type; at most 5 MiB; only into the visitor's own conversations.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { testEmailConfig } from '../helpers/email.js';
import { describeEachDialect } from '../helpers/harness.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==', 'base64');

describeEachDialect('POST /widget/v1/{widget_key}/conversations/{id}/screenshots', (ctx) => {
  async function visitorConversation() {
    const product = await widgetProduct(ctx(), { proof_of_work: false });
    const session = await startSession(ctx(), product.widget_key, { name: 'Ada' });
    const client = visitor(ctx(), session.token);
    const conversation = (await client.post(widgetPath(product.widget_key, '/conversations'), { body: 'The page is blank' })).body.data;
    const send = (bytes: Buffer, type: string, id = conversation.id) =>
      client.request('POST', widgetPath(product.widget_key, `/conversations/${id}/screenshots?filename=blank.png`), { payload: bytes, headers: { 'content-type': type } });
    const sendNothing = () => client.request('POST', widgetPath(product.widget_key, `/conversations/${conversation.id}/screenshots`));
    return { product, conversation, send, sendNothing };
  }

  it('adds the image to the conversation as the visitor\'s message; the team downloads it byte for byte', async () => {
    const { conversation, send } = await visitorConversation();
    const res = await send(PNG, 'image/png');
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.body, '[Screenshot: blank.png]');
    const team = (await ctx().a.api.get(`/api/v1/conversations/${conversation.id}`)).body.data;
    const [file] = team.messages.at(-1).attachments;
    assert.deepEqual([file.filename, file.content_type, file.size], ['blank.png', 'image/png', PNG.length]);
    const download = await ctx().app.inject({ method: 'GET', url: `/api/v1/attachments/${file.id}`, headers: { authorization: `Bearer ${ctx().a.key}` } });
    assert.deepEqual(download.rawPayload, PNG);
  });

  it('refuses bytes that are no image, even declared as one, and images over 5 MiB', async () => {
    const { send, sendNothing } = await visitorConversation();
    const html = await send(Buffer.from('<html><script>alert(1)</script></html>'), 'image/png');
    assert.equal(html.status, 400);
    assert.ok(html.body.fields.body);
    const huge = await send(Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), 'image/png');
    assert.equal(huge.status, 413);
    const text = await send(Buffer.from('hello'), 'text/plain');
    assert.equal(text.status, 415);
    assert.equal((await sendNothing()).status, 415, 'no body at all');
  });

  it('is a 404 for a conversation the visitor cannot see', async () => {
    const mine = await visitorConversation();
    const theirs = await visitorConversation();
    assert.equal((await mine.send(PNG, 'image/png', theirs.conversation.id)).status, 404);
  });
}, { email: testEmailConfig() });
