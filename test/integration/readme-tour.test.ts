// The README as a newcomer follows it: the two commands come first, every file it names is in the
// repository, its tour runs top to bottom against a fresh server, twice in a row, cleanly, and its
// widget block answers a visitor who writes from the demo page only once the block is waiting.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { ServerProcess } from '../helpers/processes.js';
import { solveAltcha, widgetPath } from '../helpers/widget.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BANNER = /curl -H "Authorization: Bearer (ldk_[0-9A-Za-z]{40})" (http:\/\/127\.0\.0\.1:\d+)\/api\/v1\/me\n/;

/** The shell blocks between `<!-- name:start -->` and `<!-- name:end -->`. */
function shellBlocks(name: string): string[] {
  const section = README.slice(README.indexOf(`<!-- ${name}:start -->`), README.indexOf(`<!-- ${name}:end -->`));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
}

/** The tour's shell blocks, as one script aimed at `key` and `baseUrl`. */
function tourScript(key: string, baseUrl: string): string {
  const blocks = shellBlocks('tour');
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

  // `npm install` puts neither command on the PATH: the README runs them through npx, which finds
  // them in the checkout's node_modules/.bin (the root package's, linked by `prepare`, and the cli
  // workspace's), runs them as they are, and builds nothing.
  it('runs loopdesk and ldk through npx in its commands, and npx finds both in the checkout without building it', () => {
    const commandLines = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) => match[1]!.split('\n'));
    const bare = commandLines.filter((line) => /^(?:[A-Z_]+=\S+ )*(?:loopdesk|ldk)\b/.test(line));
    assert.deepEqual(bare, [], 'commands without npx');
    assert.ok(commandLines.filter((line) => line.startsWith('npx loopdesk ')).length >= 5);
    const built = () => statSync(join(ROOT, 'dist/web/widget/widget.js')).mtimeMs;
    const before = built();
    // An empty npm cache, as on a new machine: a checkout npx installed earlier is not found there.
    const env = { ...process.env, npm_config_cache: mkdtempSync(join(tmpdir(), 'loopdesk-npx-cache-')) };
    for (const command of ['loopdesk', 'ldk']) {
      const run = spawnSync('npx', ['--offline', command, '--help'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
      assert.equal(run.status, 0, `npx ${command} --help: ${run.stderr}`);
      assert.match(run.stdout, command === 'loopdesk' ? /usage: loopdesk/ : /Usage: ldk/);
    }
    // Installing the checkout into npx's cache would run `prepare`: a full build, under the servers of the other tests.
    assert.equal(built(), before, 'npx built the checkout');
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
        // stdin not a socket, and no rc file: bash otherwise takes a socket on stdin for a remote
        // shell's and runs the system's bashrc, whose `$PS1` fails under -u in some environments.
        const result = spawnSync('bash', ['--norc', '-euo', 'pipefail', '-c', script], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
        assert.equal(result.status, 0, `exit ${result.status}\n${result.stdout}\n${result.stderr}`);
        assert.equal(result.stderr, '');
        assert.match(result.stdout, /^create$/m, 'triage, a POST without a body, suggested a new issue');
        assert.match(result.stdout, /"matched_existing": true/, 'the deduplicating create matched the issue');
        assert.match(result.stdout, /"linked": 1/);
        assert.match(result.stdout, /"issues": \[\s*"released"\s*\]/);
        assert.match(result.stdout, /^resolved$/m);
        assert.match(result.stdout, /^\[erased\]$/m, 'the contact was erased (a DELETE)');
      });
    }

    it('tries the widget: the block waits for the first message from the demo page, answers it and resolves the chat', async () => {
      const [widgetBlock] = shellBlocks('widget-try');
      assert.ok(widgetBlock, 'the README has the widget block');
      const shell = spawn('bash', ['--norc', '-euo', 'pipefail', '-c', `${script}\n${widgetBlock}`], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
      let stdout = '';
      let stderr = '';
      shell.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      shell.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => shell.once('close', resolve));

      // The visitor writes only once the block has looked for a chat and found none.
      await server.waitFor(/"method":"GET","path":"\/api\/v1\/conversations","status":200/, 60_000);
      const [, demoPage, widgetKey] = stdout.match(/^Open (\S+\/widget\/demo\/(wk_\w+))$/m) ?? assert.fail(`no demo page printed:\n${stdout}`);
      assert.equal((await fetch(demoPage)).status, 200, demoPage);
      const baseUrl = demoPage.slice(0, demoPage.indexOf('/widget/demo/'));
      const widget = async (path: string, body?: object, token?: string) => {
        const res = await fetch(`${baseUrl}${widgetPath(widgetKey, path)}`, {
          method: body ? 'POST' : 'GET',
          headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
          body: body && JSON.stringify(body),
        });
        assert.ok(res.ok, `${path}: ${res.status}`);
        return res.json();
      };
      const session = await widget('/sessions', { altcha: await solveAltcha(await widget('/challenge')) });
      const chat = await widget('/conversations', { body: 'Is anyone there?' }, session.data.token);

      assert.equal(await exited, 0, `${stdout}\n${stderr}`);
      assert.equal(stderr, '');
      const { data } = await widget(`/conversations/${chat.data.id}`, undefined, session.data.token);
      assert.equal(data.status, 'resolved');
      assert.deepEqual(
        data.messages.map(({ sender_type, body }: any) => [sender_type, body]),
        [['contact', 'Is anyone there?'], ['agent', 'Hi! How can we help?']],
      );
    });
  });
}
