// Attachments of incoming mail (docs/email.md), in both stores: a folder, and a real
// S3-compatible server (moto). Files round-trip byte for byte, are listed on their message,
// downloaded only within their workspace with Content-Disposition: attachment and nosniff; files
// over 10 MB are not kept (the message says so); erasing a contact's attachments deletes their
// bytes unless another attachment holds the same content.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { AttachmentStoreConfig } from '../../src/config.js';
import { sha256Of } from '../../src/storage/attachment-store.js';
import { DIALECTS } from '../helpers/databases.js';
import { mailSample, mailWith, postMail, testEmailConfig } from '../helpers/email.js';
import { eventually } from '../helpers/events.js';
import { createProduct } from '../helpers/factories.js';
import { createTestContext, unique, type TestContext } from '../helpers/harness.js';
import { findMotoServer, startMotoServer, type MotoServer } from '../helpers/moto.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==', 'base64');

const moto = findMotoServer();
if ('problem' in moto && process.env.CI) throw new Error(`the S3 attachment tests need moto: ${moto.problem}`);

const STORES: { name: string; config: () => Promise<{ store: AttachmentStoreConfig; stop(): void }> }[] = [
  { name: 'folder', config: async () => ({ store: testEmailConfig().attachments, stop() {} }) },
  {
    name: 's3 (moto)',
    config: async () => {
      if ('problem' in moto) throw new Error(moto.problem);
      const server: MotoServer = await startMotoServer(moto.path);
      return { store: server.store, stop: server.stop };
    },
  },
];

for (const dialect of DIALECTS) {
  for (const { name, config } of STORES) {
    describe(`attachments in a ${name} store [${dialect}]`, { skip: name.startsWith('s3') && 'problem' in moto ? (moto as { problem: string }).problem : false }, () => {
      let context: TestContext & { close(): Promise<void> };
      let stop = () => {};
      let product: any;
      before(async () => {
        const { store, stop: stopStore } = await config();
        stop = stopStore;
        context = await createTestContext(dialect, { email: testEmailConfig({ attachments: store }) });
        product = await createProduct(context.a.api);
      });
      after(async () => {
        await context?.close();
        stop();
      });

      const messageOf = async (raw: Buffer) => {
        const { conversation_id, message_id } = (await postMail(context.a.api, raw, product.id)).body.data;
        const data = (await context.a.api.get(`/api/v1/conversations/${conversation_id}`)).body.data;
        return data.messages.find((message: any) => message.id === message_id);
      };

      it('lists a mail\'s files on its message and serves them byte for byte, as downloads, within the workspace', async () => {
        const message = await messageOf(mailSample('outlook-reply', { REPLY_TO: 'support@example.com' }));
        assert.deepEqual(message.attachments.map(({ id, ...rest }: any) => rest), [{ filename: 'blank-page.png', content_type: 'image/png', size: PNG.length }]);
        const url = `/api/v1/attachments/${message.attachments[0].id}`;
        const res = await context.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${context.a.key}` } });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.rawPayload, PNG);
        assert.equal(res.headers['content-disposition'], 'attachment; filename="blank-page.png"; filename*=UTF-8\'\'blank-page.png');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['content-type'], 'image/png');
        assert.equal((await context.b.api.get(url)).status, 404, 'another workspace');
        assert.equal((await context.client(null).get(url)).status, 401);
        assert.equal((await context.a.api.get('/api/v1/attachments/0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000')).status, 404);
      });

      it('round-trips any bytes up to 10 MB and leaves out larger files, saying so on the message', async () => {
        const binary = randomBytes(1024 * 1024 + 3);
        const tooBig = Buffer.alloc(10 * 1024 * 1024 + 1, 7);
        const message = await messageOf(await mailWith(`Files <${unique('files').replace(/\W/g, '')}@example.com>`, [
          { filename: 'dump.bin', content: binary, contentType: 'application/octet-stream' },
          { filename: 'huge.zip', content: tooBig, contentType: 'application/zip' },
        ]));
        assert.deepEqual(message.attachments.map((file: any) => [file.filename, file.size]), [['dump.bin', binary.length]]);
        assert.match(message.body, /\[Not kept, over the 10 MB limit: huge\.zip \(10\.0 MB\)\]$/);
        const res = await context.app.inject({ method: 'GET', url: `/api/v1/attachments/${message.attachments[0].id}`, headers: { authorization: `Bearer ${context.a.key}` } });
        assert.deepEqual(res.rawPayload, binary);
      });

      it('erases a contact\'s attachments with the contact (DELETE /contacts/{id}); bytes another attachment shares stay', async () => {
        const shared = randomBytes(2048);
        const senders = [unique('erased'), unique('kept')].map((tag) => `${tag.replace(/\W/g, '')}@example.com`);
        const own = randomBytes(64);
        const erased = await messageOf(await mailWith(senders[0], [
          { filename: 'a.bin', content: shared, contentType: 'application/octet-stream' }, { filename: 'own.png', content: own, contentType: 'image/png' },
        ]));
        const kept = await messageOf(await mailWith(senders[1], [{ filename: 'b.bin', content: shared, contentType: 'application/octet-stream' }]));
        const { services } = context;
        // Their export names their files (the bytes are the team's to download).
        const exported = (await context.a.api.get(`/api/v1/contacts/${erased.sender_id}/export`)).body.data;
        assert.deepEqual(exported.conversations[0].messages[0].attachments.map((file: any) => file.filename), ['a.bin', 'own.png']);
        assert.equal((await context.a.api.delete(`/api/v1/contacts/${erased.sender_id}`)).status, 204);
        for (const file of erased.attachments) assert.equal((await context.a.api.get(`/api/v1/attachments/${file.id}`)).status, 404);
        await eventually(() => services.attachmentStore.get(sha256Of(own)), (bytes) => bytes === null, 'the erased file\'s bytes deleted');
        assert.deepEqual(await services.attachmentStore.get(sha256Of(shared)), shared);
        const res = await context.app.inject({ method: 'GET', url: `/api/v1/attachments/${kept.attachments[0].id}`, headers: { authorization: `Bearer ${context.a.key}` } });
        assert.deepEqual(res.rawPayload, shared);
      });
    });
  }
}
