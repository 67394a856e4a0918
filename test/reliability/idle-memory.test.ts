// A process gone quiet after a burst of work gives the memory back (src/lib/idle-memory.ts): a
// child process does what `loopdesk serve` does at start, allocates and drops a few hundred MB,
// then idles; V8's memory reducer must run a memory-reducing collection and the RSS must fall.
// Without the nudge, on Node 24, the reducer reports "high alloc" every 8 s and the RSS stays.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { reducerNeedsNudge } from '../../src/lib/idle-memory.js';
import { assertDistIsCurrent } from '../helpers/dist-freshness.js';

// Two reducer ticks of 8 s after the burst's last full collection, with room for a loaded machine.
const QUIET_WITHIN_MS = 60_000;

const burstScript = (distModule: string) => `
import { readFileSync } from 'node:fs';
import { returnMemoryWhenIdle } from ${JSON.stringify(distModule)};
returnMemoryWhenIdle();
const rss = () => Math.round(Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024);
// Chunks of small objects, ten held at a time: old-generation growth and full collections, as a backlog makes.
let held = [];
for (let round = 0; round < 60; round++) {
  const chunk = [];
  for (let i = 0; i < 50_000; i++) chunk.push({ i, text: 'item ' + i + ' of round ' + round });
  held.push(chunk);
  if (held.length > 10) held.shift();
}
held = null;
console.log('burst done, rss ' + rss());
setInterval(() => console.log('rss ' + rss()), 250);
`;

describe('memory after a burst of work', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loopdesk-idle-memory-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('goes back to the system within two reducer ticks of going quiet', {
    skip: reducerNeedsNudge(process.versions.v8) ? false : `V8 ${process.versions.v8} reduces memory without the nudge`,
  }, async () => {
    assertDistIsCurrent();
    const script = join(dir, 'burst.mjs');
    writeFileSync(script, burstScript(new URL('../../dist/lib/idle-memory.js', import.meta.url).href));
    const child = spawn(process.execPath, ['--max-semi-space-size=16', '--trace-memory-reducer', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), QUIET_WITHIN_MS);
    const trace: string[] = [];
    let burstRss = 0;
    let reducing = false;
    let rssAfter = 0;
    try {
      for await (const line of createInterface({ input: child.stdout! })) {
        trace.push(line);
        const burst = /^burst done, rss (\d+)$/.exec(line);
        if (burst) burstRss = Number(burst[1]);
        if (burstRss && /Memory reducer: finished GC #\d+ \(done\)/.test(line)) reducing = true;
        const rss = /^rss (\d+)$/.exec(line);
        if (reducing && rss) {
          rssAfter = Number(rss[1]);
          break;
        }
      }
    } finally {
      clearTimeout(timer);
      child.kill('SIGKILL');
    }
    assert.ok(reducing, `no memory-reducing collection within ${QUIET_WITHIN_MS / 1000} s of the burst:\n${trace.slice(-12).join('\n')}`);
    assert.ok(burstRss > 250, `the burst should leave the process large (RSS ${burstRss} MB)`);
    assert.ok(rssAfter < burstRss / 2, `RSS ${burstRss} MB after the burst, ${rssAfter} MB after the reducing collection`);
  });
});
