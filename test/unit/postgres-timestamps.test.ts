import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isoFromPostgres } from '../../src/db/dialect.js';

describe('timestamptz text from PostgreSQL', () => {
  it('becomes ISO 8601 UTC with milliseconds', () => {
    assert.equal(isoFromPostgres('2026-11-21 10:25:00.123+00'), '2026-11-21T10:25:00.123Z');
    assert.equal(isoFromPostgres('2026-11-21 10:25:00+00'), '2026-11-21T10:25:00.000Z');
    assert.equal(isoFromPostgres('2026-11-21 10:25:00.1+00'), '2026-11-21T10:25:00.100Z');
  });

  it('keeps the years before 100 (Date\'s own parser refuses them)', () => {
    assert.equal(isoFromPostgres('0014-05-01 18:44:17+00'), '0014-05-01T18:44:17.000Z');
    assert.equal(isoFromPostgres('0099-12-31 23:59:59.999+00'), '0099-12-31T23:59:59.999Z');
    assert.equal(isoFromPostgres('0001-01-01 00:00:00+00 BC'), '0000-01-01T00:00:00.000Z');
  });

  it('applies the session\'s offset, seconds included', () => {
    assert.equal(isoFromPostgres('2026-11-21 11:25:00+01'), '2026-11-21T10:25:00.000Z');
    assert.equal(isoFromPostgres('2026-11-21 05:55:00-04:30'), '2026-11-21T10:25:00.000Z');
    assert.equal(isoFromPostgres('1850-01-01 00:53:28+00:53:28'), '1850-01-01T00:00:00.000Z');
  });

  it('refuses text it does not know, rather than guessing', () => {
    assert.throws(() => isoFromPostgres('infinity'), /unexpected timestamptz/);
  });
});
