// The load generator, in its own process so it never shares a CPU queue with the bench's
// bookkeeping: reads a LoadJob as JSON on stdin, runs autocannon (warm-up, then measurement)
// and prints a LoadResult as JSON on stdout. It tells its parent when the measured window opens and
// closes (IPC), so the parent can read the server's CPU at those moments.
import autocannon from 'autocannon';
import type { LoadJob, LoadMark, LoadResult } from './load.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const job = JSON.parse(await readStdin()) as LoadJob;

// Each request takes the next spec of the pool; `{n}` in a body becomes a counter, so every
// write differs from the one before (a PATCH that changes nothing would skip the write).
let next = 0;
const requests: autocannon.Request[] = [
  {
    setupRequest: (request) => {
      const spec = job.requests[next % job.requests.length];
      const n = next++;
      return {
        ...request,
        method: spec.method,
        path: spec.path,
        headers: {
          authorization: `Bearer ${spec.token ?? job.key}`,
          ...(spec.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: spec.body?.replaceAll('{n}', String(n)),
      };
    },
  },
];

/** Resolves once the parent has the message, so the window it reads the CPU for is the one measured. */
const mark = (moment: LoadMark) => new Promise<void>((resolve, reject) => process.send!(moment, (error: Error | null) => (error ? reject(error) : resolve())));

const run = (duration: number) => autocannon({ url: job.url, connections: job.connections, duration, requests });

const warmup = job.warmupSeconds > 0 ? await run(job.warmupSeconds) : null;
await mark('measuring');
const result = await run(job.durationSeconds);
await mark('measured');
const output: LoadResult = {
  rps: result.requests.average,
  p50_ms: result.latency.p50,
  p99_ms: result.latency.p99,
  errors: result.errors + result.timeouts + result.non2xx,
  requests: result.requests.total,
  succeeded: (warmup?.['2xx'] ?? 0) + result['2xx'],
  measured_succeeded: result['2xx'],
};
process.stdout.write(JSON.stringify(output));
