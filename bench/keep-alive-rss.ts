// The memory figure of the suite's keep-alive test (test/reliability/limits.test.ts, which checks
// that 200 concurrent keep-alive clients are served, each on one connection): the clients against
// `bin/loopdesk.js serve` on a fresh SQLite database, each sending `requests` requests (half page
// reads, half creates), with the server's peak RSS from /proc against the 300 MB target.
//   npm run build && node --import ./test/helpers/typescript-hooks.mjs bench/keep-alive-rss.ts [clients] [requests per client]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runKeepAliveClients } from '../test/helpers/keep-alive-load.js';
import { sampleRss, startServer } from '../test/helpers/server-process.js';

/** The limit the suite asserted (for 200 clients × 10 requests) before the figure moved here. */
const RSS_TARGET_MB = 300;
const clients = Number(process.argv[2] ?? 200);
const requestsEach = Number(process.argv[3] ?? 250);
const dir = mkdtempSync(join(tmpdir(), 'loopdesk-rss-'));

const server = await startServer({ databaseUrl: `sqlite:${join(dir, 'rss.db')}`, firstStart: true });
try {
  const key = server.bootstrapKey()!;
  const res = await fetch(`${server.baseUrl}/api/v1/products`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'RSS bench' }),
  });
  const productId = (await res.json()).data.id;
  const rss = sampleRss(server.pid);
  const started = performance.now();
  const result = await runKeepAliveClients(server.baseUrl, key, productId, clients, requestsEach);
  const seconds = (performance.now() - started) / 1000;
  const peak = rss.stop();
  process.stdout.write(
    `${clients} keep-alive clients, ${result.requests} requests in ${seconds.toFixed(1)} s ` +
      `(${Math.round(result.requests / seconds)} req/s) over ${result.connections} connections, ` +
      `${result.failures.length} failures; peak RSS ${peak} MB; target under ${RSS_TARGET_MB} MB: ${peak < RSS_TARGET_MB ? 'met' : 'MISSED'}\n`,
  );
} finally {
  server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
