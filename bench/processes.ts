// The processes the bench starts: the Loopdesk server under test (`bin/loopdesk.js serve`), the
// bare-Fastify ceiling server, the floor server (the same answers by hand, on the same database), and (shared with the reliability suite) the peak-RSS sampler.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assertDistIsCurrent } from '../test/helpers/dist-freshness.js';
import { portOnceListening } from '../test/helpers/ports.js';
import { RUN_TYPESCRIPT } from '../test/helpers/typescript.js';

export { sampleRss } from '../test/helpers/server-process.js';

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces and parentheses: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

export interface ServerProcess {
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

async function waitUntilUp(child: ChildProcess, url: string, output: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} while starting:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not answer ${url} within ${STARTUP_TIMEOUT_MS / 1000} s:\n${output()}`);
}

/**
 * Spawns `node ...args` listening on a loopback port the OS picks (PORT=0), learns the port from
 * /proc (its log line is not there at level warn, and stdout is not read) and waits until
 * `readyPath` answers.
 */
async function startProcess(args: string[], env: Record<string, string>, readyPath: string): Promise<ServerProcess> {
  // stdout (one log line per request at level info) goes to /dev/null, as it would to a file.
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let port: number;
  try {
    port = await portOnceListening(child.pid!, { timeoutMs: STARTUP_TIMEOUT_MS, exited: () => child.exitCode !== null });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}:\n${stderr}`);
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilUp(child, `${baseUrl}${readyPath}`, () => stderr);
  return {
    pid: child.pid!,
    baseUrl,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface LoopdeskOptions {
  databaseUrl: string;
  logLevel: string;
  cpuProfileDir: string | null;
  /** More settings for the server, e.g. LOOPDESK_WEBHOOKS_ALLOW_PRIVATE. */
  env?: Record<string, string>;
}

/**
 * How long the bench's server waits before folding a conversation's messages
 * (LOOPDESK_SEARCH_FOLD_MS): the longest it allows, past the end of any run. Seeding's
 * conversations are folded before the server starts (asDeployed); a write scenario's folds would
 * fall due after it, belong to no scenario, and cost 20 ms a conversation on SQLite at 10k, which
 * the bench would only wait out (25 s of the smoke's 160); no scenario after the writes reads
 * the search.
 */
export const BENCH_SEARCH_FOLD_MS = 24 * 3_600_000;

/**
 * How long after a contact's message the scenarios' server summarizes its conversation
 * (LOOPDESK_SUMMARY_DEBOUNCE_MS, bench/run.ts): the longest it allows. The floor's check of the visitor's
 * message sends three messages to a conversation and compares what the last two did; a summary
 * falling due between them (2 s by default, less than the check took at 100k) adds its own
 * event and job to one of the two.
 */
export const BENCH_SUMMARY_DEBOUNCE_MS = 8_000;

export function startLoopdesk({ databaseUrl, logLevel, cpuProfileDir, env = {} }: LoopdeskOptions): Promise<ServerProcess> {
  assertDistIsCurrent();
  const profile = cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfileDir] : [];
  return startProcess(
    [...profile, 'bin/loopdesk.js', 'serve'],
    {
      DATABASE_URL: databaseUrl,
      LOOPDESK_LOG_LEVEL: logLevel,
      // Measure the request path itself, not a limiter turning load into 429s (unless --rate-limit).
      LOOPDESK_RATE_LIMIT: '0',
      LOOPDESK_WIDGET_RATE_LIMIT: '0',
      LOOPDESK_DEDUP_PROVIDER: 'lexical',
      LOOPDESK_SEARCH_FOLD_MS: String(BENCH_SEARCH_FOLD_MS),
      ...env,
    },
    '/healthz',
  );
}

export const startCeiling = (): Promise<ServerProcess> =>
  startProcess([...RUN_TYPESCRIPT, fileURLToPath(new URL('./ceiling-server.ts', import.meta.url))], {}, '/');

export const startFloor = (databaseUrl: string): Promise<ServerProcess> =>
  startProcess([...RUN_TYPESCRIPT, fileURLToPath(new URL('./floor-server.ts', import.meta.url))], { DATABASE_URL: databaseUrl }, '/healthz');
