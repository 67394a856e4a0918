// Release announcement rules without a server: the SMTP settings, the texts, and the retry
// schedule of a job that failed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { emailOf, messageText } from '../../src/domain/releases/announcement.service.js';
import { retryOutcome } from '../../src/events/retry-schedule.js';

const RELEASE = { id: 'r', title: 'November fixes', version: '2.4.0', product: { id: 'p', name: 'Acme Mobile App' } };
const SMTP = { LOOPDESK_SMTP_URL: 'smtp://user:pass@mail.example.com:587', LOOPDESK_MAIL_FROM: 'Acme Support <support@acme.test>' };

describe('announcement settings', () => {
  it('mails nothing without LOOPDESK_SMTP_URL', () => {
    assert.equal(loadConfig({}).mail, null);
  });

  it('reads the SMTP URL, the From and the timeout', () => {
    assert.deepEqual({ ...loadConfig({ ...SMTP, LOOPDESK_SMTP_TIMEOUT_MS: '5000' }).mail }, { smtpUrl: SMTP.LOOPDESK_SMTP_URL, from: SMTP.LOOPDESK_MAIL_FROM, timeoutMs: 5000 });
    assert.equal(loadConfig({ ...SMTP, LOOPDESK_MAIL_FROM: 'support@acme.test' }).mail?.from, 'support@acme.test');
  });

  it('refuses what cannot send mail', () => {
    for (const env of [
      { LOOPDESK_SMTP_URL: SMTP.LOOPDESK_SMTP_URL },
      { LOOPDESK_MAIL_FROM: SMTP.LOOPDESK_MAIL_FROM },
      { ...SMTP, LOOPDESK_SMTP_URL: 'http://mail.example.com' },
      { ...SMTP, LOOPDESK_SMTP_URL: 'not a url' },
      { ...SMTP, LOOPDESK_MAIL_FROM: 'support' },
      { ...SMTP, LOOPDESK_SMTP_TIMEOUT_MS: '0' },
    ]) {
      assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
    }
  });
});

describe('announcement texts', () => {
  it('names the conversation’s issues, the product, version and title', () => {
    assert.equal(messageText(RELEASE, ['Export crashes']), 'Good news: “Export crashes” shipped in Acme Mobile App 2.4.0 — November fixes.');
    assert.equal(messageText({ ...RELEASE, version: null }, ['A', 'B', 'C']), 'Good news: “A”, “B” and “C” shipped in Acme Mobile App — November fixes.');
  });

  it('greets a contact without a name and escapes the HTML part', () => {
    const email = emailOf(RELEASE, { name: null, address: 'x@example.com' }, ['<b>bold</b>']);
    assert.equal(email.subject, 'Shipped in Acme Mobile App 2.4.0');
    assert.match(email.text, /^Hello,\n/);
    assert.match(email.html, /<li>&lt;b&gt;bold&lt;\/b&gt;<\/li>/);
  });
});

describe('announcement retries', () => {
  const NOW = Date.parse('2026-11-23T10:00:00.000Z');
  const SCHEDULE = [50, 100];
  const dueAfter = (attempts: number) => Date.parse(retryOutcome(attempts, 'SMTP 451', false, NOW, SCHEDULE, () => 0).next_attempt_at!) - NOW;

  it('follows the schedule, then repeats its last wait: an email is never given up on', () => {
    assert.deepEqual([1, 2, 3, 10].map(dueAfter), [50, 100, 100, 100]);
    assert.equal(retryOutcome(10, 'SMTP 451', false, NOW, SCHEDULE).status, 'pending');
  });

  it('fails a job only when retrying cannot help', () => {
    assert.deepEqual(retryOutcome(1, 'SMTP 550 (RCPT TO)', true, NOW, SCHEDULE), {
      status: 'failed', attempts: 1, last_error: 'SMTP 550 (RCPT TO)', next_attempt_at: null, updated_at: new Date(NOW).toISOString(),
    });
  });
});
