// Timestamps round-trip exactly on both databases, early years included (PostgreSQL writes them
// in a form JavaScript's Date parser refuses: found by Schemathesis as a 500).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createProduct, createRelease } from '../helpers/factories.js';
import { describeEachDialect } from '../helpers/harness.js';

describeEachDialect('released_at of any year the API accepts (0001–9999)', (ctx) => {
  for (const [given, stored] of [
    ['0014-05-01T18:44:17Z', '0014-05-01T18:44:17.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['2026-11-23T12:00:00+01:00', '2026-11-23T11:00:00.000Z'],
  ]) {
    it(`stores ${given} and returns ${stored}`, async () => {
      const { api } = ctx().a;
      const release = await createRelease(api, (await createProduct(api)).id, { released_at: given });
      assert.equal(release.released_at, stored);
      assert.equal((await api.get(`/api/v1/releases/${release.id}`)).body.data.released_at, stored);
    });
  }
});
