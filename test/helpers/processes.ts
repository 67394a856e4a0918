// The real executable as a child process: one-shot admin commands and long-running servers.
// It runs the compiled dist/ (built by `npm test`'s pretest, or `npm run build`), and refuses to
// when dist/ is older than src/.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assertDistIsCurrent } from './dist-freshness.js';

export const BIN = fileURLToPath(new URL('../../bin/loopdesk.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `loopdesk <args>` with `env` added to this process's environment. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    assertDistIsCurrent();
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

/** `loopdesk serve` in a child process, with its output collected as it arrives. */
export class ServerProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Set once the process has exited and its output has been read to the end. */
  private closed = false;
  /** Set once the server has said it listens: an exit after that, not asked for, is reported. */
  private listening = false;
  private stopAsked = false;
  private readonly waiters = new Set<() => void>();

  constructor(env: Record<string, string>) {
    assertDistIsCurrent();
    this.child = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => this.received(() => (this.stdout += chunk)));
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => this.received(() => (this.stderr += chunk)));
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code, signal) => {
        this.received(() => (this.closed = true));
        // A server that ends on its own while serving has crashed, and the request that finds it
        // gone says only ECONNREFUSED. (A test that kills it outright gets a signal here.)
        if (this.listening && !this.stopAsked && signal === null) {
          process.stderr.write(`\nloopdesk serve (pid ${this.child.pid}) exited on its own with code ${code} while serving; its output:\n` +
            `${this.stdout.slice(-20_000)}\n${this.stderr.slice(-20_000)}\n`);
        }
        resolve({ code, signal });
      }),
    );
  }

  private received(append: () => void): void {
    append();
    for (const wake of this.waiters) wake();
  }

  /** Resolves with the first match of `pattern` in stdout; rejects when the process exits or time runs out. */
  waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const done = (outcome: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        outcome();
      };
      const check = () => {
        const match = this.stdout.match(pattern);
        if (match) done(() => resolve(match));
        else if (this.closed) done(() => reject(new Error(`server exited before printing ${pattern}:\n${this.stdout}\n${this.stderr}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`server did not print ${pattern} in ${timeoutMs} ms:\n${this.stdout}\n${this.stderr}`))),
        timeoutMs,
      );
      this.waiters.add(check);
      check();
    });
  }

  /** The base URL from Fastify's "Server listening at …" log line. */
  async baseUrl(): Promise<string> {
    const [, url] = await this.waitFor(/Server listening at (http:\/\/[^"\s]+)/);
    this.listening = true;
    return url;
  }

  /** Sends `signal`: an exit it causes is asked for, and not reported. */
  signal(signal: NodeJS.Signals): void {
    this.stopAsked = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }

  /** Sends `signal` and resolves with the exit status. */
  async stop(signal: NodeJS.Signals = 'SIGTERM') {
    this.signal(signal);
    return this.exited;
  }
}
