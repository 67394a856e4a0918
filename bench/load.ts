// Runs one load (a warm-up, then the measured window) with autocannon in a child process, and
// samples the target server's RSS while it runs, and its CPU over the measured window.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RUN_TYPESCRIPT } from '../test/helpers/typescript.js';
import { cpuMs, ROOT, sampleRss } from './processes.js';

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  /** JSON text; `{n}` is replaced by a per-request counter. */
  body?: string;
  /** The bearer token of this request (a widget session) instead of the job's key. */
  token?: string;
}

/**
 * How long a load runs: a warm-up of up to 2 s, then `seconds` measured; or `requests` answers of
 * warm-up, then as many measured, on the same connections (the smoke's setting: its cost does not
 * depend on how fast a scenario is, and autocannon's duration cannot go below a second).
 */
export type LoadLength = { seconds: number } | { requests: number };

export interface LoadJob {
  url: string;
  key: string;
  requests: RequestSpec[];
  connections: number;
  length: { warmupSeconds: number; seconds: number } | { requests: number; warmupSeconds: number };
}

export interface LoadResult {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  requests: number;
  /** 2xx answers, warm-up included: the events a write scenario recorded. */
  succeeded: number;
  /** 2xx answers in the measured window. */
  measured_succeeded: number;
}

/** What the load worker tells its parent, as it happens. */
export type LoadMark = 'measuring' | 'measured';

/** The load worker's answer to a job. */
export type LoadWorkerReply = { result: LoadResult } | { error: string };

export const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
const FIRST_WARMUP_SECONDS = 1;

/**
 * The servers that have had a load. The first load on a server warms up for a second at least,
 * whatever its length: V8 compiles the request path then, and a few hundred requests leave it
 * half done (`GET /me`, the first scenario, cost 280 µs a request after 250 of warm-up against
 * 120–180 after a second's thousands).
 */
const warmed = new Set<number>();

const WORKER = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

let worker: ChildProcess | null = null;

/**
 * The one load worker of this process, started at its first load (a process per load cost about
 * 0.4 s of CPU each: its start and a cold autocannon). Its stderr is the bench's: a pipe would keep
 * the bench alive after its last load.
 */
function loadWorker(): ChildProcess {
  if (worker === null || worker.exitCode !== null || worker.signalCode !== null) {
    worker = spawn(process.execPath, [...RUN_TYPESCRIPT, WORKER], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  }
  return worker;
}

/** The warm-up is 2 s, or the whole duration when that is shorter; a count's is as many requests (see `warmed`). */
export async function runLoad(
  target: { pid: number; baseUrl: string },
  key: string,
  requests: RequestSpec[],
  length: LoadLength,
): Promise<LoadResult & { peak_rss_mb: number; server_cpu_us_per_request: number }> {
  const job: LoadJob = {
    url: target.baseUrl, key, requests, connections: CONNECTIONS,
    length: 'seconds' in length
      ? { warmupSeconds: Math.min(WARMUP_SECONDS, length.seconds), seconds: length.seconds }
      : { requests: length.requests, warmupSeconds: warmed.has(target.pid) ? 0 : FIRST_WARMUP_SECONDS },
  };
  warmed.add(target.pid);
  const child = loadWorker();
  const rss = sampleRss(target.pid);
  // The server's CPU over the measured window only: the warm-up pays for compiling the request
  // path, not a cost per request.
  const cpuAt: Partial<Record<LoadMark, number>> = {};
  let result: LoadResult;
  let peak: number;
  child.ref();
  child.channel?.ref();
  try {
    result = await new Promise<LoadResult>((resolve, reject) => {
      const onMessage = (message: LoadMark | LoadWorkerReply) => {
        if (typeof message === 'string') return void (cpuAt[message] = cpuMs(target.pid));
        child.off('message', onMessage).off('exit', onExit);
        if ('error' in message) reject(new Error(`load generator failed: ${message.error}`));
        else resolve(message.result);
      };
      const onExit = (code: number | null) => reject(new Error(`load generator exited with ${code} (its stderr above)`));
      child.on('message', onMessage).once('exit', onExit);
      child.send(job);
    });
  } finally {
    peak = rss.stop();
    // Kept for the next load, without keeping the bench alive after its last.
    child.unref();
    child.channel?.unref();
  }
  const cpuUs = (cpuAt.measured! - cpuAt.measuring!) * 1000;
  return { ...result, peak_rss_mb: peak, server_cpu_us_per_request: cpuUs / Math.max(1, result.measured_succeeded) };
}
