// The real server (processes.ts) as the reliability suite runs it: on a loopback port the OS
// picks, with the lexical duplicate detector and no rate limit, its API key read from the
// first-start banner, and killed when the test process exits, whatever happened.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ServerProcess } from './processes.js';

const BANNER_KEY = /^\s+(ldk_[0-9A-Za-z]{40})$/m;

const running = new Set<ServerProcess>();
process.once('exit', () => {
  for (const server of running) server.child.kill('SIGKILL');
});

export interface ServerOptions {
  databaseUrl: string;
  /** More environment (LOOPDESK_* settings); PORT, HOST and DATABASE_URL are set here. */
  env?: Record<string, string>;
  /** The database is empty: wait for the first-start banner and its API key too. */
  firstStart?: boolean;
}

export interface RunningServer {
  process: ServerProcess;
  pid: number;
  port: number;
  baseUrl: string;
  /** The API key the first-start banner printed so far, or null. */
  bootstrapKey(): string | null;
  kill(signal: NodeJS.Signals): void;
}

/** A JSON request to a server process with `key`, which must succeed: the answer's `data`. */
export async function apiData(server: RunningServer, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return (await res.json()).data;
}

export async function startServer({ databaseUrl, env = {}, firstStart = false }: ServerOptions): Promise<RunningServer> {
  const server = new ServerProcess({
    LOOPDESK_DEDUP_PROVIDER: 'lexical',
    LOOPDESK_RATE_LIMIT: '0',
    LOOPDESK_LOG_LEVEL: 'info',
    ...env,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
  });
  running.add(server);
  void server.exited.then(() => running.delete(server));
  try {
    const baseUrl = await server.baseUrl();
    // Log lines wait for the banner, so it is already out when the port is announced.
    if (firstStart) await server.waitFor(BANNER_KEY);
    return {
      process: server,
      pid: server.child.pid!,
      port: Number(new URL(baseUrl).port),
      baseUrl,
      bootstrapKey: () => BANNER_KEY.exec(server.stdout)?.[1] ?? null,
      kill: (signal) => server.signal(signal),
    };
  } catch (error) {
    server.child.kill('SIGKILL');
    throw error;
  }
}

/** The resident set size of a process in MB, from /proc/<pid>/status (0 once it is gone). */
function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** Samples the RSS of `pid` every 100 ms until stopped; returns the peak in MB. */
export function sampleRss(pid: number): { stop(): number } {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMb(pid));
    },
  };
}
