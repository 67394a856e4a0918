// The team app's client types (web/app/src/api/openapi.d.ts) are what the server in this checkout
// serves: a change to the API must come with regenerated types (and an app that compiles with them).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { APP_CLIENT_TYPES, appClientTypes } from '../../web/app/scripts/generate-client.js';
import { createTestContext } from '../helpers/harness.js';

describe('web/app/src/api/openapi.d.ts', () => {
  it('matches what the server serves at GET /api/v1/openapi.json', async () => {
    const context = await createTestContext('sqlite');
    try {
      const served = await appClientTypes((await context.a.api.get('/api/v1/openapi.json')).body);
      const committed = readFileSync(APP_CLIENT_TYPES, 'utf8');
      const [a, b] = [committed.split('\n'), served.split('\n')];
      const line = a.findIndex((text, i) => text !== b[i]);
      assert.ok(
        committed === served,
        `web/app/src/api/openapi.d.ts is out of date (line ${line === -1 ? a.length + 1 : line + 1}: committed ${JSON.stringify(a[line] ?? '(end)')}, served ${JSON.stringify(b[line] ?? '(end)')})\n` +
          'Regenerate it: start the server (npm start), then LOOPDESK_URL=… LOOPDESK_API_KEY=… npm run generate:app',
      );
    } finally {
      await context.close();
    }
  });
});
