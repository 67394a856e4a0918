// GET /app and /app/*: the team app's build served by src/http/web-app.ts (a build of its own in a
// temp folder, so these tests do not depend on Vite having run).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { assertWebAppBuilt, WebAppMissingError } from '../../src/http/web-app.js';
import { createTestContext, type TestContext } from '../helpers/harness.js';

const INDEX = '<!doctype html><title>Loopdesk</title><script type="module" src="/app/assets/index-abc123.js"></script>';

function fakeBuild(): string {
  const root = mkdtempSync(join(tmpdir(), 'loopdesk-app-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log("app")');
  return root;
}

describe('the team app at /app', () => {
  let context: TestContext & { close(): Promise<void> };
  before(async () => {
    context = await createTestContext('sqlite', { webAppDir: fakeBuild() });
  });
  after(() => context.close());

  for (const path of ['/app', '/app/', '/app/inbox', '/app/issues/APP-3', '/app/invite/some-token']) {
    it(`serves index.html at ${path}, revalidated on every load`, async () => {
      const response = await context.client(null).get(path);
      assert.equal(response.status, 200);
      assert.equal(response.text, INDEX);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      assert.equal(response.headers['cache-control'], 'no-cache');
      assert.match(String(response.headers['content-security-policy']), /frame-ancestors 'none'/);
    });
  }

  it('serves hashed assets with a year-long immutable cache', async () => {
    const response = await context.client(null).get('/app/assets/index-abc123.js');
    assert.equal(response.status, 200);
    assert.equal(response.text, 'console.log("app")');
    assert.match(String(response.headers['content-type']), /javascript/);
    assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
  });

  it('answers a missing asset with the 404 envelope, not the page', async () => {
    const response = await context.client(null).get('/app/assets/index-gone.js');
    assert.equal(response.status, 404);
    assert.equal(response.body.error_code, 'not_found');
  });

  it('keeps the app out of the OpenAPI document', async () => {
    const document = (await context.a.api.get('/api/v1/openapi.json')).body;
    assert.ok(Object.keys(document.paths).every((path) => !path.startsWith('/app')));
  });
});

describe('a missing build', () => {
  it('stops the server at start with a message that says how to build it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'loopdesk-app-'));
    assert.throws(() => assertWebAppBuilt(empty), (error: Error) => error instanceof WebAppMissingError && /npm run build/.test(error.message));
    const context = await createTestContext('sqlite');
    try {
      await assert.rejects(buildApp({ database: context.database, services: context.services, webAppDir: empty }), WebAppMissingError);
    } finally {
      await context.close();
    }
  });
});
