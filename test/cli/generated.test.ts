// The CLI's client types and its copy of the OpenAPI document (cli/src/generated) are what the
// server in this checkout serves: a change to the API must come with regenerated files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GENERATED_DIR, generatedFiles } from '../../cli/scripts/generate.js';
import { createTestContext } from '../helpers/harness.js';

/** Where two texts first differ, as the line of each (a whole-file diff of 200 kB says nothing). */
function firstDifference(committed: string, current: string): string {
  const [a, b] = [committed.split('\n'), current.split('\n')];
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}:\n  committed: ${a[at] ?? '(end of file)'}\n  served:    ${b[at] ?? '(end of file)'}`;
}

describe('cli/src/generated', () => {
  it('matches what the server serves at GET /api/v1/openapi.json', async () => {
    const context = await createTestContext('sqlite');
    try {
      const document = (await context.a.api.get('/api/v1/openapi.json')).body;
      const files = await generatedFiles(document);
      assert.deepEqual(Object.keys(files).sort(), ['openapi-document.ts', 'openapi.d.ts']);
      for (const [name, contents] of Object.entries(files)) {
        const committed = readFileSync(join(GENERATED_DIR, name), 'utf8');
        assert.ok(
          committed === contents,
          `cli/src/generated/${name} is out of date (${firstDifference(committed, contents)})\n` +
            'Regenerate it: start the server (npm start), then LOOPDESK_URL=… LOOPDESK_API_KEY=… npm run generate -w cli',
        );
      }
    } finally {
      await context.close();
    }
  });
});
