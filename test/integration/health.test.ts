import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from '../helpers/databases.js';
import { createTestContext, type TestContext } from '../helpers/harness.js';

// The probes live outside /api/v1 and outside openapi.json, so they are called with
// app.inject directly rather than through the harness client that checks the document.
for (const dialect of DIALECTS) {
  describe(`health probes [${dialect}]`, () => {
    let ctx: TestContext & { close(): Promise<void> };
    before(async () => {
      ctx = await createTestContext(dialect);
    });
    after(() => ctx.app.close());

    const probe = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

    it('GET /healthz answers 200 without a key', async () => {
      const res = await probe('/healthz');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'ok' });
      assert.ok(res.headers['x-request-id']);
    });

    it('GET /readyz answers 200 with the database ok, without a key', async () => {
      const res = await probe('/readyz');
      assert.equal(res.statusCode, 200);
      // Other components may report their own readiness beside these two fields.
      assert.equal(res.json().status, 'ok');
      assert.equal(res.json().database, 'ok');
    });

    it('ignores an invalid key on the probes', async () => {
      const res = await probe('/readyz', { authorization: 'Bearer nonsense' });
      assert.equal(res.statusCode, 200);
    });

    it('GET /readyz answers 503 once the database is unreachable, and /healthz stays 200', async () => {
      await ctx.database.close();
      const ready = await probe('/readyz');
      assert.equal(ready.statusCode, 503);
      assert.equal(ready.json().status, 'unavailable');
      assert.equal(ready.json().database, 'unreachable');
      assert.equal((await probe('/healthz')).statusCode, 200);
    });
  });
}
