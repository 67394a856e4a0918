import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { outcomeAfter } from '../../src/events/retry-schedule.js';

const NOW = Date.parse('2026-11-21T10:00:00.000Z');
const SCHEDULE = loadConfig({}).webhooks.retryScheduleMs;
const failed = { ok: false, statusCode: 500, error: 'HTTP 500' };

describe('the retry schedule', () => {
  it('is 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h and 24 h by default, with a 10 s timeout', () => {
    const minutes = 60_000;
    const hours = 60 * minutes;
    assert.deepEqual(SCHEDULE, [5_000, 30_000, 2 * minutes, 10 * minutes, 30 * minutes, hours, 3 * hours, 6 * hours, 12 * hours, 24 * hours]);
    assert.equal(loadConfig({}).webhooks.timeoutMs, 10_000);
    assert.ok(loadConfig({}).webhooks.pollIntervalMs <= 1000);
  });

  it('waits the schedule\'s time after each failed attempt, up to 10 % longer', () => {
    SCHEDULE.forEach((wait, i) => {
      for (const random of [0, 0.5, 0.999]) {
        const outcome = outcomeAfter(i + 1, failed, NOW, SCHEDULE, () => random);
        assert.equal(outcome.status, 'pending');
        const delay = Date.parse(outcome.next_attempt_at!) - NOW;
        assert.ok(delay >= wait && delay <= wait * 1.1, `attempt ${i + 1}: waited ${delay} ms for ${wait}`);
      }
    });
  });

  it('fails the delivery when the attempt after the last retry fails', () => {
    const outcome = outcomeAfter(SCHEDULE.length + 1, failed, NOW, SCHEDULE);
    assert.deepEqual(outcome, {
      status: 'failed', attempts: SCHEDULE.length + 1, last_status_code: 500, last_error: 'HTTP 500', next_attempt_at: null,
      updated_at: '2026-11-21T10:00:00.000Z',
    });
  });

  it('succeeds on a 2xx, whatever came before', () => {
    const outcome = outcomeAfter(3, { ok: true, statusCode: 202, error: null }, NOW, SCHEDULE);
    assert.deepEqual([outcome.status, outcome.attempts, outcome.last_status_code, outcome.last_error, outcome.next_attempt_at], ['succeeded', 3, 202, null, null]);
  });
});

describe('webhook settings', () => {
  it('reads the schedule, timeout, poll interval, concurrency and the private-address switch', () => {
    const webhooks = loadConfig({
      LOOPDESK_WEBHOOK_RETRY_SCHEDULE_MS: '50, 100', LOOPDESK_WEBHOOK_TIMEOUT_MS: '500', LOOPDESK_WEBHOOK_POLL_MS: '20',
      LOOPDESK_WEBHOOK_CONCURRENCY: '4', LOOPDESK_WEBHOOKS_ALLOW_PRIVATE: '1',
    }).webhooks;
    assert.deepEqual(webhooks, { retryScheduleMs: [50, 100], timeoutMs: 500, pollIntervalMs: 20, concurrency: 4, allowPrivate: true });
    assert.equal(loadConfig({}).webhooks.allowPrivate, false);
  });

  const bad: [string, string][] = [
    ['LOOPDESK_WEBHOOK_RETRY_SCHEDULE_MS', '5,x'], ['LOOPDESK_WEBHOOK_RETRY_SCHEDULE_MS', '0'], ['LOOPDESK_WEBHOOK_TIMEOUT_MS', '10'],
    ['LOOPDESK_WEBHOOK_POLL_MS', '5000'], ['LOOPDESK_WEBHOOK_CONCURRENCY', '0'], ['LOOPDESK_WEBHOOKS_ALLOW_PRIVATE', 'yes'],
  ];
  for (const [name, value] of bad) {
    it(`refuses ${name}=${value}`, () => assert.throws(() => loadConfig({ [name]: value }), ConfigError));
  }
});
