// The app's durations (SLA targets typed as "1h 30m") and its countdown labels ("12 min",
// "overdue 5 min"): pure functions of web/app/src/ui, tested without a browser.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDuration, parseDuration, timeLeft } from '../../web/app/src/ui/durations.js';

describe('parseDuration', () => {
  it('reads days, hours, minutes and seconds, with or without spaces and long unit names', () => {
    assert.equal(parseDuration('1h 30m'), 5400);
    assert.equal(parseDuration('1h30m'), 5400);
    assert.equal(parseDuration('2d'), 172_800);
    assert.equal(parseDuration('1 day, 4 hours'), 100_800);
    assert.equal(parseDuration('45 min'), 2700);
    assert.equal(parseDuration('90s'), 90);
    assert.equal(parseDuration('1.5h'), 5400);
    assert.equal(parseDuration(' 2H '), 7200);
  });
  it('takes a bare number as minutes, and an empty field as no target', () => {
    assert.equal(parseDuration('30'), 1800);
    assert.equal(parseDuration('   '), null);
  });
  it('refuses what does not read as a duration, saying how to write one', () => {
    for (const text of ['soon', '1h soon', 'h', '1 fortnight', '-1h', '1h 30']) {
      const result = parseDuration(text);
      assert.ok(result instanceof Error, `${text} → ${String(result)}`);
    }
    assert.equal((parseDuration('1 fortnight') as Error).message, '"fortnight" is not a unit: use d, h, m or s');
  });
});

describe('formatDuration', () => {
  it('writes the largest units first and leaves out the empty ones, reading back as written', () => {
    assert.equal(formatDuration(102_600), '1d 4h 30m');
    assert.equal(formatDuration(5400), '1h 30m');
    assert.equal(formatDuration(86_400), '1d');
    assert.equal(formatDuration(61), '1m 1s');
    assert.equal(formatDuration(null), '');
    for (const seconds of [1, 59, 3600, 31_536_000, 93_784]) assert.equal(parseDuration(formatDuration(seconds)), seconds);
  });
});

describe('timeLeft', () => {
  const now = Date.parse('2026-12-06T12:00:00Z');
  const at = (ms: number) => new Date(now + ms).toISOString();
  it('counts whole minutes, hours and days left, never 0 before the due time', () => {
    assert.deepEqual(timeLeft(at(12 * 60_000 + 30_000), now), { text: '12 min', overdue: false });
    assert.deepEqual(timeLeft(at(1000), now), { text: '1 min', overdue: false });
    assert.deepEqual(timeLeft(at(3 * 3600_000 + 59 * 60_000), now), { text: '3 h', overdue: false });
    assert.deepEqual(timeLeft(at(2 * 86_400_000), now), { text: '2 d', overdue: false });
  });
  it('says how long ago a due time passed, from the due time itself', () => {
    assert.deepEqual(timeLeft(at(0), now), { text: 'overdue 0 min', overdue: true });
    assert.deepEqual(timeLeft(at(-5 * 60_000 - 10_000), now), { text: 'overdue 5 min', overdue: true });
    assert.deepEqual(timeLeft(at(-26 * 3600_000), now), { text: 'overdue 1 d', overdue: true });
  });
});
