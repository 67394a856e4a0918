// ldk (the package in cli/) as a person or an agent runs it: its build, cli/dist, as a child
// process with a home of its own (its auth file is the test's) and none of the test process's
// LOOPDESK_* settings, against a real HTTP server: a test context's app listening on a loopback port.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DialectName } from './databases.js';
import { createTestContext, type TestContext } from './harness.js';

export const CLI_ROOT = fileURLToPath(new URL('../../cli/', import.meta.url));
export const LDK = join(CLI_ROOT, 'bin', 'ldk.js');

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

let built = false;
/** cli/dist is rebuilt whole by tsc (no incremental build), so every output is at least as new as its source. */
function assertLdkBuilt(): void {
  if (built) return;
  const src = join(CLI_ROOT, 'src');
  const stale = sources(src).filter((source) => {
    const output = join(CLI_ROOT, 'dist', relative(src, source)).replace(/\.ts$/, '.js');
    try {
      return statSync(output).mtimeMs < statSync(source).mtimeMs;
    } catch {
      return true;
    }
  });
  assert.deepEqual(stale.map((path) => relative(CLI_ROOT, path)), [], 'cli/dist is older than cli/src: run npm run build');
  built = true;
}

export interface LdkResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The test process's environment without what would change ldk's behaviour. */
export function ldkEnvironment(env: Record<string, string>): Record<string, string | undefined> {
  // Nor CI: Node reads CI=true as a two-colour terminal, so a CI run would see no colours.
  const inherited = Object.entries(process.env).filter(([name]) => !/^(LOOPDESK_|XDG_CONFIG_HOME$|NO_COLOR$|FORCE_COLOR$|CI$)/.test(name));
  return { ...Object.fromEntries(inherited), ...env };
}

/** `ldk <args>` with stdin a pipe (not a terminal) that is closed at once. */
export function runLdk(args: string[], { env = {}, cwd }: { env?: Record<string, string>; cwd: string }): Promise<LdkResult> {
  assertLdkBuilt();
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [LDK, ...args], { cwd, env: ldkEnvironment(env), timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
    child.stdin?.end();
  });
}

/** Words as one line of shell, each quoted. */
export const shellWords = (words: string[]): string => words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');

export interface TerminalOptions {
  env?: Record<string, string>;
  /** Typed once stdout shows `prompt`. */
  prompt?: string;
  answer?: string;
  /** The terminal's width. */
  columns?: number;
}

/**
 * `ldk <args>` on a terminal: under script(1), which gives it a pseudo-terminal. Output comes back
 * as the terminal shows it (\r\n line ends).
 */
export function runLdkOnTerminal(
  args: string[],
  { env = {}, cwd, prompt, answer, columns = 200 }: TerminalOptions & { cwd: string },
): Promise<LdkResult> {
  assertLdkBuilt();
  const command = `stty cols ${columns} rows 50; ${shellWords([process.execPath, LDK, ...args])}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd, env: ldkEnvironment({ TERM: 'xterm-256color', ...env }) });
  let stdout = '';
  let stderr = '';
  let answered = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (prompt && answer !== undefined && !answered && stdout.includes(prompt)) {
      answered = true;
      child.stdin.write(answer);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Someone at a shell: their own home (auth file) and working folder, and environment variables. */
export class Shell {
  readonly env: Record<string, string>;
  readonly home: string;
  cwd: string;

  constructor(env: Record<string, string> = {}, home = tempDir('ldk-home-'), cwd = tempDir('ldk-work-')) {
    this.env = env;
    this.home = home;
    this.cwd = cwd;
  }

  /** The same home and folder, with more environment. */
  withEnv(env: Record<string, string>): Shell {
    return new Shell({ ...this.env, ...env }, this.home, this.cwd);
  }

  run(...args: string[]): Promise<LdkResult> {
    return runLdk(args, { env: { HOME: this.home, ...this.env }, cwd: this.cwd });
  }

  onTerminal(args: string[], options: TerminalOptions = {}): Promise<LdkResult> {
    return runLdkOnTerminal(args, { ...options, env: { HOME: this.home, ...this.env, ...options.env }, cwd: this.cwd });
  }

  /** `ldk <args> --json`, which must succeed: the body it printed. */
  async json(...args: string[]): Promise<any> {
    const result = await this.run(...args, '--json');
    assert.equal(result.code, 0, `ldk ${args.join(' ')} --json: exit ${result.code}\n${result.stdout}\n${result.stderr}`);
    assert.equal(result.stderr, '');
    return JSON.parse(result.stdout);
  }

  /** `ldk <args>`, which must succeed: what it printed. */
  async text(...args: string[]): Promise<string> {
    const result = await this.run(...args);
    assert.equal(result.code, 0, `ldk ${args.join(' ')}: exit ${result.code}\n${result.stdout}\n${result.stderr}`);
    assert.equal(result.stderr, '');
    return result.stdout;
  }
}

export interface ListeningContext extends TestContext {
  /** The server's base URL, http://127.0.0.1:<port>. */
  url: string;
  /** A shell whose LOOPDESK_URL and LOOPDESK_API_KEY point at this server with `key`. */
  shell(key: string): Shell;
  close(): Promise<void>;
}

/**
 * A test context whose app is reached at a loopback port that is also its public URL: the links it
 * builds (embed_snippet, invitations) then read the same whether the test asked through app.inject
 * or the CLI through HTTP. The app is built with that URL, so the port must be known first, and it
 * must stay ours until the app serves it: a plain TCP listener on port 0 holds it from the start and
 * hands every connection it accepts to the app's HTTP server, which never listens itself.
 */
export async function listeningContext(dialect: DialectName): Promise<ListeningContext> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  try {
    const context = await createTestContext(dialect, { publicUrl: url });
    const sockets = new Set<Socket>();
    listener.on('connection', (socket) => {
      sockets.add(socket.once('close', () => sockets.delete(socket)));
      context.app.server.emit('connection', socket);
    });
    return {
      ...context,
      url,
      shell: (key) => new Shell({ LOOPDESK_URL: url, LOOPDESK_API_KEY: key }),
      async close() {
        listener.close();
        await context.close();
        // A server that never listened does not track its connections, so it leaves kept-alive ones open.
        for (const socket of sockets) socket.destroy();
      },
    };
  } catch (error) {
    listener.close();
    throw error;
  }
}
