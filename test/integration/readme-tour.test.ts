// The README as a newcomer follows it: the two commands come first, every file it names is in the
// repository, and its tour runs top to bottom against a fresh server, twice in a row, cleanly.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { ServerProcess } from '../helpers/processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BANNER = /curl -H "Authorization: Bearer (ldk_[0-9A-Za-z]{40})" (http:\/\/127\.0\.0\.1:\d+)\/api\/v1\/me\n/;

/** The shell blocks between the tour markers, as one script aimed at `key` and `baseUrl`. */
function tourScript(key: string, baseUrl: string): string {
  const tour = README.slice(README.indexOf('<!-- tour:start -->'), README.indexOf('<!-- tour:end -->'));
  const blocks = [...tour.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
  assert.ok(blocks.length >= 2, 'the README has a tour');
  const script = blocks.join('\n');
  assert.match(script, /^export LOOPDESK_KEY=ldk_\.\.\..*$/m);
  assert.match(script, /^export API=http:\/\/127\.0\.0\.1:3000\/api\/v1$/m);
  return script
    .replace(/^export LOOPDESK_KEY=ldk_\.\.\..*$/m, `export LOOPDESK_KEY=${key}`)
    .replace(/^export API=.*$/m, `export API=${baseUrl}/api/v1`);
}

describe('README', () => {
  it('starts with the two commands', () => {
    assert.match(README, /^# Loopdesk\n\n```sh\nnpm install && npm start\nnpm test\n```\n/);
  });

  it('names only files that are in the repository', () => {
    assert.doesNotMatch(README, /\.\.\//, 'no link outside the repository');
    const named = [...README.matchAll(/`((?:docs|src|test|bench|bin)\/[\w./-]+)`/g)].map((match) => match[1]);
    assert.ok(named.length > 5);
    for (const path of named) assert.ok(existsSync(join(ROOT, path)), `${path} exists`);
  });
});

for (const dialect of DIALECTS) {
  describe(`the README tour [${dialect}]`, () => {
    let server: ServerProcess;
    let script: string;
    before(async () => {
      server = new ServerProcess({
        DATABASE_URL: await freshDatabaseUrl(dialect),
        PORT: '0',
        // The default matcher, kept offline: no model files here, so it stays lexical.
        LOOPDESK_MODELS_DIR: mkdtempSync(join(tmpdir(), 'loopdesk-no-models-')),
        LOOPDESK_LOG_FORMAT: 'json',
      });
      const [, key, baseUrl] = await server.waitFor(BANNER);
      script = tourScript(key, baseUrl);
    });
    after(async () => {
      await server.stop();
    });

    for (const run of ['first', 'second']) {
      it(`runs top to bottom without an error (${run} run)`, () => {
        const result = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8', timeout: 60_000 });
        assert.equal(result.status, 0, `exit ${result.status}\n${result.stdout}\n${result.stderr}`);
        assert.equal(result.stderr, '');
        assert.match(result.stdout, /"matched_existing": true/, 'the deduplicating create matched the issue');
        assert.match(result.stdout, /"linked": 1/);
        assert.match(result.stdout, /"issues": \[\s*"released"\s*\]/);
        assert.match(result.stdout, /^resolved$/m);
      });
    }
  });
}
