// The email settings (docs/email.md) and the addresses of mail: what LOOPDESK_INBOUND_DOMAIN,
// LOOPDESK_SMTP_LISTEN (with LOOPDESK_SMTP_MAX_CONNECTIONS), LOOPDESK_EMAIL_SENDER_LIMIT and LOOPDESK_S3_* become, what they refuse, and
// how an inbound or reply address is read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { addressToken, parseInboundAddress, replyAddress, returnPathAddress } from '../../src/domain/email/addresses.js';
import { sniffImageType } from '../../src/domain/widget/screenshot.service.js';

describe('email settings', () => {
  it('defaults to no inbound domain, no receiver, 10 new conversations per sender and hour, a folder for attachments, a return path per reply', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(loadConfig({}).email)), {
      inboundDomain: null, smtpListen: null, newConversationsPerSenderHour: 10, attachments: { kind: 'folder', dir: 'data/attachments' }, returnPath: 'reply',
    });
    assert.equal(loadConfig({ LOOPDESK_MAIL_RETURN_PATH: 'from' }).email.returnPath, 'from');
  });

  it('reads the domain (lowercased), the receiver\'s host:port and connection cap, the limit and an S3 bucket', () => {
    const email = loadConfig({
      LOOPDESK_INBOUND_DOMAIN: 'Support.Example.COM', LOOPDESK_SMTP_LISTEN: '[::]:2525', LOOPDESK_EMAIL_SENDER_LIMIT: '0',
      LOOPDESK_S3_BUCKET: 'files', LOOPDESK_S3_ENDPOINT: 'http://minio:9000', LOOPDESK_S3_ACCESS_KEY_ID: 'id', LOOPDESK_S3_SECRET_ACCESS_KEY: 'secret',
    }).email;
    assert.equal(email.inboundDomain, 'support.example.com');
    assert.deepEqual({ ...email.smtpListen }, { host: '::', port: 2525, maxConnections: 10 });
    assert.equal(loadConfig({ LOOPDESK_INBOUND_DOMAIN: 'example.com', LOOPDESK_SMTP_LISTEN: '0.0.0.0:25', LOOPDESK_SMTP_MAX_CONNECTIONS: '40' }).email.smtpListen?.maxConnections, 40);
    assert.equal(email.newConversationsPerSenderHour, 0);
    assert.deepEqual(JSON.parse(JSON.stringify(email.attachments)), {
      kind: 's3', bucket: 'files', endpoint: 'http://minio:9000', region: 'us-east-1', credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
  });

  it('refuses settings that cannot work', () => {
    for (const env of [
      { LOOPDESK_INBOUND_DOMAIN: 'not a domain' },
      { LOOPDESK_SMTP_LISTEN: '0.0.0.0:25' },
      { LOOPDESK_SMTP_MAX_CONNECTIONS: '0' },
      { LOOPDESK_SMTP_MAX_CONNECTIONS: 'many' },
      { LOOPDESK_INBOUND_DOMAIN: 'example.com', LOOPDESK_SMTP_LISTEN: '25' },
      { LOOPDESK_S3_ENDPOINT: 'http://minio:9000' },
      { LOOPDESK_S3_BUCKET: 'files', LOOPDESK_S3_ACCESS_KEY_ID: 'id' },
      { LOOPDESK_EMAIL_SENDER_LIMIT: '-1' },
      { LOOPDESK_MAIL_RETURN_PATH: 'bounces@example.com' },
    ]) {
      assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
    }
  });
});

describe('inbound and reply addresses', () => {
  it('reads the inbound name and the reply token of an address at the domain, without case', () => {
    assert.deepEqual(parseInboundAddress('Acme-x1y2z3@Mail.Example.com', 'mail.example.com'), { name: 'acme-x1y2z3', token: null });
    assert.deepEqual(parseInboundAddress('acme-x1y2z3+ABC123@mail.example.com', 'mail.example.com'), { name: 'acme-x1y2z3', token: 'abc123' });
    assert.equal(parseInboundAddress('acme@elsewhere.example', 'mail.example.com'), null);
    assert.equal(parseInboundAddress('acme@mail.example.com', ''), null);
  });

  it('makes unguessable lowercase address tokens and the reply addresses and return paths they go in', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => addressToken()));
    assert.equal(tokens.size, 100);
    for (const token of tokens) assert.match(token, /^[a-z0-9]{24}$/);
    assert.equal(replyAddress('acme-x1y2z3', 'tok', 'mail.example.com'), 'acme-x1y2z3+tok@mail.example.com');
    assert.equal(replyAddress('acme-x1y2z3', null, 'mail.example.com'), 'acme-x1y2z3@mail.example.com');
    assert.equal(returnPathAddress('tok', 'mail.example.com'), 'bounces+tok@mail.example.com');
  });
});

describe('screenshot types', () => {
  it('knows PNG, JPEG, GIF and WebP by their first bytes, and nothing else', () => {
    assert.equal(sniffImageType(Buffer.from('89504e470d0a1a0a0000', 'hex')), 'image/png');
    assert.equal(sniffImageType(Buffer.from('ffd8ffe000104a464946', 'hex')), 'image/jpeg');
    assert.equal(sniffImageType(Buffer.from('GIF89a....')), 'image/gif');
    assert.equal(sniffImageType(Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1')), 'image/webp');
    assert.equal(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null);
    assert.equal(sniffImageType(Buffer.alloc(0)), null);
  });
});
