// Runs one load (a warm-up, then the measured window) with autocannon in a child process, and
// samples the target server's RSS while it runs, and its CPU over the measured window.
import { spawn } from 'node:child_process';
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

export const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
const FIRST_WARMUP_SECONDS = 1;

/**
 * The servers that have had a load. The first load on a server warms up for a second at least,
 * whatever its length: V8 compiles the request path then, and a few hundred requests leave it
 * half done (`GET /me`, the first scenario, cost 280 µs a request after 250 of warm-up against
 * 160–180 after a second's thousands).
 */
const warmed = new Set<number>();

const WORKER = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

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
  const rss = sampleRss(target.pid);
  const child = spawn(process.execPath, [...RUN_TYPESCRIPT, WORKER], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe', 'ipc'] });
  // The server's CPU over the measured window only: the warm-up pays for compiling the request
  // path and the worker's start leaves the server idle, neither a cost per request.
  const cpuAt: Partial<Record<LoadMark, number>> = {};
  child.on('message', (moment: LoadMark) => (cpuAt[moment] = cpuMs(target.pid)));
  let stdout = '';
  let stderr = '';
  // Piped above (the IPC channel only makes Node's types unsure of it).
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  child.stdin!.end(JSON.stringify(job));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const peak = rss.stop();
  if (code !== 0) throw new Error(`load generator exited with ${code}:\n${stderr}`);
  const result = JSON.parse(stdout) as LoadResult;
  const cpuUs = (cpuAt.measured! - cpuAt.measuring!) * 1000;
  return { ...result, peak_rss_mb: peak, server_cpu_us_per_request: cpuUs / Math.max(1, result.measured_succeeded) };
}
