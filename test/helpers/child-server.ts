// A server the tests run as a child process (a model behind an OpenAI-compatible API): told to
// listen on 127.0.0.1 port 0, its port read back from /proc (docs/reliability.md, "Test ports"),
// ready once it answers, stopped by the test or, at the latest, when the test process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { portOnceListening } from './ports.js';

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface ChildServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  pid: number;
  /** What it wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  env?: Record<string, string>;
  /** Whether the server at `origin` answers as a ready one does. */
  ready: (origin: string) => Promise<boolean>;
  timeoutMs: number;
}

/** Runs `command args` (which must listen on port 0) and resolves once `ready` holds; `name` is for errors. */
export async function startChildServer(name: string, command: string, args: string[], { env = {}, ready, timeoutMs }: ChildServerOptions): Promise<ChildServer> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  for (const stream of [child.stdout!, child.stderr!]) stream.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    running.delete(child);
  };
  const deadline = Date.now() + timeoutMs;
  let port: number;
  try {
    port = await portOnceListening(child.pid!, { timeoutMs, exited: () => child.exitCode !== null });
  } catch (error) {
    await stop();
    throw new Error(`${name}: ${(error as Error).message}:\n${output.slice(-4000)}`);
  }
  const origin = `http://127.0.0.1:${port}`;
  for (; Date.now() < deadline; await sleep(200)) {
    if (child.exitCode !== null) break;
    if (await ready(origin).catch(() => false)) return { origin, pid: child.pid!, output: () => output, stop };
  }
  await stop();
  throw new Error(`${name} did not answer on ${origin} within ${timeoutMs} ms:\n${output.slice(-4000)}`);
}
