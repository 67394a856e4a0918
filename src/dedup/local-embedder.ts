// The `local` matcher's embedder: @huggingface/transformers in a worker thread, loaded once on
// first use and shared by all requests. Requests that arrive while the worker is busy are sent
// together as the next batch.
import { Worker } from 'node:worker_threads';
import { DetectionError } from './detector.js';
import type { Embedder } from './embedding-detector.js';
import type { EmbedReply, EmbedRequest, LocalModelSetup } from './local-worker.js';

const MAX_BATCH = 32;

/**
 * The text prefix a model family was trained with. e5 models expect `query: ` on both sides of
 * a symmetric comparison (their authors' advice for similarity and paraphrase tasks).
 */
export function modelPrefix(model: string): string {
  return /(^|\/)(multilingual-)?e5-/i.test(model) ? 'query: ' : '';
}

interface Pending {
  texts: string[];
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

// The worker's entry has this module's extension: TypeScript under the tests and `npm run
// eval:dedup` (a worker thread inherits the process's flags, with them the `--import` that runs
// TypeScript), JavaScript in dist/.
function startWorker(setup: LocalModelSetup): Worker {
  const entry = new URL(`./local-worker${import.meta.url.slice(import.meta.url.lastIndexOf('.'))}`, import.meta.url);
  return new Worker(entry, { workerData: setup });
}

export function localEmbedder(setup: LocalModelSetup): Embedder {
  const prefix = modelPrefix(setup.model);
  let worker: Worker | null = null;
  let queue: Pending[] = [];
  let inFlight: Pending[] | null = null;
  let nextId = 1;

  function fail(batch: Pending[], error: Error): void {
    for (const pending of batch) pending.reject(error);
  }

  function spawn(): Worker {
    const started = startWorker(setup);
    let crash: Error | null = null;
    started.on('message', (reply: EmbedReply) => {
      const batch = inFlight ?? [];
      inFlight = null;
      if ('error' in reply) fail(batch, new DetectionError(`local model ${setup.model} failed: ${reply.error}`, { cause: new Error(reply.error) }));
      else {
        let offset = 0;
        for (const pending of batch) {
          pending.resolve(pending.texts.map(() => reply.vectors.subarray(offset, (offset += reply.dimension))));
        }
      }
      pump();
    });
    started.on('error', (error) => {
      crash = error;
    });
    // A worker that dies (crash, out of memory, close) fails its batch; the next one starts afresh.
    started.on('exit', () => {
      if (worker !== started) return;
      worker = null;
      fail(inFlight ?? [], new DetectionError(`the local model worker stopped${crash ? `: ${crash.message}` : ''}`, { cause: crash }));
      inFlight = null;
      pump();
    });
    return started;
  }

  function pump(): void {
    if (inFlight) return;
    if (queue.length === 0) {
      // Idle: the worker alone must not keep the process alive.
      worker?.unref();
      return;
    }
    let size = 0;
    const batch: Pending[] = [];
    while (queue.length > 0 && (batch.length === 0 || size + queue[0].texts.length <= MAX_BATCH)) {
      size += queue[0].texts.length;
      batch.push(queue.shift()!);
    }
    worker ??= spawn();
    worker.ref();
    inFlight = batch;
    const request: EmbedRequest = { id: nextId++, texts: batch.flatMap((p) => p.texts.map((t) => prefix + t)) };
    worker.postMessage(request);
  }

  return {
    name: `local:${setup.model}`,
    model: setup.model,
    embed(texts) {
      return new Promise((resolve, reject) => {
        queue.push({ texts, resolve, reject });
        pump();
      });
    },
    async close() {
      const closing = worker;
      worker = null;
      fail([...(inFlight ?? []), ...queue], new DetectionError('the local model was closed'));
      inFlight = null;
      queue = [];
      await closing?.terminate();
    },
  };
}
