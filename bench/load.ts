// Runs one load (a warm-up, then the measured window) with autocannon in a child process, and
// samples the target server's RSS while it runs.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ROOT, sampleRss } from './processes.js';

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  /** JSON text; `{n}` is replaced by a per-request counter. */
  body?: string;
  /** The bearer token of this request (a widget session) instead of the job's key. */
  token?: string;
}

export interface LoadJob {
  url: string;
  key: string;
  requests: RequestSpec[];
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface LoadResult {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  requests: number;
  /** 2xx answers, warm-up included: the events a write scenario recorded. */
  succeeded: number;
}

export const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;

const WORKER = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

/** The warm-up is 2 s, or the whole duration when that is shorter (quick smoke runs). */
export async function runLoad(
  target: { pid: number; baseUrl: string },
  key: string,
  requests: RequestSpec[],
  durationSeconds: number,
): Promise<LoadResult & { peak_rss_mb: number }> {
  const job: LoadJob = {
    url: target.baseUrl, key, requests, connections: CONNECTIONS,
    warmupSeconds: Math.min(WARMUP_SECONDS, durationSeconds), durationSeconds,
  };
  const rss = sampleRss(target.pid);
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  child.stdin.end(JSON.stringify(job));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const peak = rss.stop();
  if (code !== 0) throw new Error(`load generator exited with ${code}:\n${stderr}`);
  return { ...(JSON.parse(stdout) as LoadResult), peak_rss_mb: peak };
}
