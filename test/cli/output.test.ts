// How ldk's text reads: colour on a terminal only (and never with NO_COLOR), titles cut to fit a
// narrow terminal, times relative to now.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { relativeTime } from '../../cli/src/output.js';
import { createIssue, createProduct } from '../helpers/factories.js';
import { type ListeningContext, listeningContext, type Shell } from '../helpers/ldk.js';

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
