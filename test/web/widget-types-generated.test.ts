// The widget's API types (web/widget/src/frame/widget-api.d.ts) are what the server in this
// checkout serves: a change to the widget API must come with regenerated types (and a widget that
// compiles with them, which `npm run typecheck` checks).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { WIDGET_API_TYPES, widgetApiTypes } from '../../web/widget/scripts/generate-types.js';
import { createTestContext } from '../helpers/harness.js';

describe('web/widget/src/frame/widget-api.d.ts', () => {
  it('matches what the server serves at GET /widget/v1/openapi.json', async () => {
    const context = await createTestContext('sqlite');
    try {
      const served = await widgetApiTypes((await context.client(null).get('/widget/v1/openapi.json')).body);
      const committed = readFileSync(WIDGET_API_TYPES, 'utf8');
      const [a, b] = [committed.split('\n'), served.split('\n')];
      const line = a.findIndex((text, i) => text !== b[i]);
      assert.ok(
        committed === served,
        `web/widget/src/frame/widget-api.d.ts is out of date (line ${line === -1 ? a.length + 1 : line + 1}: committed ${JSON.stringify(a[line] ?? '(end)')}, served ${JSON.stringify(b[line] ?? '(end)')})\n` +
          'Regenerate it: start the server (npm start), then LOOPDESK_URL=… npm run generate:widget',
      );
    } finally {
      await context.close();
    }
  });
});
