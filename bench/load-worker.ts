// The load generator, in its own process so it never shares a CPU queue with the bench's
// bookkeeping, one for all the loads of a run: takes each LoadJob as an IPC message, runs
// autocannon (warm-up, then measurement) and answers with its LoadResult. It tells its parent when
// the measured window opens and closes, so the parent can read the server's CPU at those moments.
// It ends when its parent does (the IPC channel is all that keeps it alive between loads).
import autocannon from 'autocannon';
import type { LoadJob, LoadMark, LoadResult, LoadWorkerReply } from './load.js';

/** Resolves once the parent has the message, so the window it reads the CPU for is the one measured. */
const send = (message: LoadMark | LoadWorkerReply) =>
  new Promise<void>((resolve, reject) => process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())));
const mark = (moment: LoadMark) => send(moment);

/** The job's pool as autocannon's requests. */
function requestsOf(job: LoadJob): autocannon.Request[] {
  // Each request takes the next spec of the pool; `{n}` in a body becomes a counter, so every
  // write differs from the one before (a PATCH that changes nothing would skip the write).
  let next = 0;
  return [
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
}

/** A warm-up of `warmupSeconds`, then `seconds` measured: two runs of autocannon. */
async function timed(job: LoadJob, warmupSeconds: number, seconds: number): Promise<LoadResult> {
  const requests = requestsOf(job);
  const run = (duration: number) => autocannon({ url: job.url, connections: job.connections, duration, requests });
  const warmup = await run(warmupSeconds);
  await mark('measuring');
  const result = await run(seconds);
  await mark('measured');
  return {
    rps: result.requests.average,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
    succeeded: warmup['2xx'] + result['2xx'],
    measured_succeeded: result['2xx'],
  };
}

/** A counted run's limit: a server that stops answering fails the load rather than hanging it. */
const COUNTED_LIMIT_SECONDS = 120;

/**
 * `count` answers of warm-up (and `warmupSeconds` at least), then `count` measured, in one run of
 * autocannon: the window opens at the warm-up's last answer and closes at the measured ones'
 * last, so the connections are opened before it and closed after it (at a few hundred requests,
 * 50 connections' set-up would weigh on the figure). Its errors are the whole run's.
 */
async function counted(job: LoadJob, count: number, warmupSeconds: number): Promise<LoadResult> {
  // Stopped once measured, it ends at its next sample (autocannon's default: every second).
  // Without a callback, its instance is the run's promise too (the types know one or the other).
  const requests = requestsOf(job);
  const run = autocannon({ url: job.url, connections: job.connections, duration: COUNTED_LIMIT_SECONDS, sampleInt: 10, requests }) as
    Promise<autocannon.Result> & autocannon.Instance;
  const warmupEnds = performance.now() + warmupSeconds * 1000;
  let warmupAnswers = 0;
  const latencies: number[] = [];
  let measuredSucceeded = 0;
  let opened = 0;
  let closed = 0;
  const marks: Promise<void>[] = [];
  run.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (opened === 0) {
      warmupAnswers += 1;
      if (warmupAnswers < count || performance.now() < warmupEnds) return;
      opened = performance.now();
      marks.push(mark('measuring'));
    } else if (closed === 0) {
      latencies.push(responseTime);
      if (statusCode >= 200 && statusCode < 300) measuredSucceeded += 1;
      if (latencies.length < count) return;
      closed = performance.now();
      marks.push(mark('measured'));
      run.stop();
    }
  });
  const result = await run;
  if (closed === 0) throw new Error(`${latencies.length} of ${count} requests answered in ${COUNTED_LIMIT_SECONDS} s, after ${warmupAnswers} of warm-up`);
  await Promise.all(marks);
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => Math.round(latencies[Math.ceil((p / 100) * count) - 1]!);
  return {
    rps: Math.round((count * 1000) / (closed - opened)),
    p50_ms: percentile(50),
    p99_ms: percentile(99),
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
    succeeded: result['2xx'],
    measured_succeeded: measuredSucceeded,
  };
}

process.on('message', async (job: LoadJob) => {
  try {
    const { length } = job;
    await send({ result: 'seconds' in length ? await timed(job, length.warmupSeconds, length.seconds) : await counted(job, length.requests, length.warmupSeconds) });
  } catch (error) {
    await send({ error: (error as Error).stack ?? String(error) });
  }
});
