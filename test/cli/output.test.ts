// How ldk's text reads: colour on a terminal only (and never with NO_COLOR), titles cut to fit a
// narrow terminal, times relative to now.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { relativeTime } from '../../cli/src/output.js';
import { createIssue, createProduct } from '../helpers/factories.js';
import { LDK, ldkEnvironment, type ListeningContext, listeningContext, type Shell, shellWords } from '../helpers/ldk.js';

const ESCAPE = '\x1b[';

describe('ldk\'s text output', () => {
  let server: ListeningContext;
  let shell: Shell;
  before(async () => {
    server = await listeningContext('sqlite');
    const product = await createProduct(server.a.api);
    await createIssue(server.a.api, product.id, { title: 'A rather long title that will not fit on a narrow terminal at all', priority: 'urgent' });
    shell = server.shell(server.a.key);
  });
  after(() => server.close());

  it('is in colour on a terminal', async () => {
    const result = await shell.onTerminal(['issue', 'list']);
    assert.equal(result.code, 0, result.stdout);
    assert.ok(result.stdout.includes(`${ESCAPE}1mISSUE`), 'bold headers');
    assert.ok(result.stdout.includes(`${ESCAPE}31murgent`), 'urgent in red');
  });

  it('has no colour on a terminal when NO_COLOR is set, nor when piped', async () => {
    const noColor = await shell.onTerminal(['issue', 'list'], { env: { NO_COLOR: '1' } });
    assert.equal(noColor.code, 0, noColor.stdout);
    assert.match(noColor.stdout, /ISSUE +STATUS/);
    assert.ok(!noColor.stdout.includes(ESCAPE), JSON.stringify(noColor.stdout));
    const piped = await shell.text('issue', 'list');
    assert.ok(!piped.includes(ESCAPE));
  });

  it('cuts the title to the width of the terminal; piped, it prints it whole', async () => {
    const narrow = await shell.onTerminal(['issue', 'list'], { columns: 80, env: { NO_COLOR: '1' } });
    const row = narrow.stdout.split('\r\n').find((line) => line.includes('urgent'))!;
    assert.equal([...row].length, 80);
    assert.match(row, /A rather long title.*…$/);
    assert.match(await shell.text('issue', 'list'), /A rather long title that will not fit on a narrow terminal at all$/m);
  });
});

describe('ldk\'s output into a pipe closed early', () => {
  let server: ListeningContext;
  before(async () => {
    server = await listeningContext('sqlite');
    const product = await createProduct(server.a.api);
    const description = 'A description long enough to fill the pipe. '.repeat(40);
    for (let i = 0; i < 100; i++) await createIssue(server.a.api, product.id, { description });
  });
  after(() => server.close());

  it('ends quietly, exit 0, when the reader stops (ldk … | head -c 10)', async () => {
    const shell = server.shell(server.a.key);
    const script = `${shellWords([process.execPath, LDK, 'issue', 'list', '--json', '--limit', '100'])} | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`;
    // Not spawnSync: the server answering ldk lives in this process.
    const result = await promisify(execFile)('bash', ['-c', script], { cwd: shell.cwd, env: ldkEnvironment({ HOME: shell.home, ...shell.env }) });
    assert.equal(result.stderr, '');
    assert.equal(result.stdout, '0\n');
  });
});

describe('relative times', () => {
  const now = Date.parse('2026-11-21T12:00:00.000Z');
  const cases: [string, string][] = [
    ['2026-11-21T11:59:31.000Z', 'just now'],
    ['2026-11-21T11:59:00.000Z', '1 minute ago'],
    ['2026-11-21T11:15:00.000Z', '45 minutes ago'],
    ['2026-11-21T09:00:00.000Z', '3 hours ago'],
    ['2026-11-20T12:00:00.000Z', '1 day ago'],
    ['2026-11-07T12:00:00.000Z', '2 weeks ago'],
    ['2026-08-21T12:00:00.000Z', '3 months ago'],
    ['2024-11-21T12:00:00.000Z', '2 years ago'],
    ['2026-11-24T12:00:00.000Z', 'in 3 days'],
  ];
  for (const [time, expected] of cases) {
    it(`${time} reads "${expected}"`, () => assert.equal(relativeTime(time, now), expected));
  }
});
