// The worker thread that owns the transformers.js feature-extraction pipeline, so tokenizing
// and ONNX inference (synchronous inside onnxruntime-node) never block the server's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';

export interface LocalModelSetup {
  model: string;
  dtype: string;
  /** Files are read from here and nothing is downloaded; null: download into cacheDir. */
  modelsDir: string | null;
  /** Where to download from (a mirror of the Hugging Face hub); null: the hub. */
  modelsUrl: string | null;
  cacheDir: string;
}

export interface EmbedRequest {
  id: number;
  texts: string[];
}

export type EmbedReply = { id: number; dimension: number; vectors: Float32Array<ArrayBuffer> } | { id: number; error: string };

const setup = workerData as LocalModelSetup;
let loading: Promise<FeatureExtractionPipeline> | null = null;

async function load(): Promise<FeatureExtractionPipeline> {
  const { pipeline, env } = await import('@huggingface/transformers');
  env.cacheDir = setup.cacheDir;
  if (setup.modelsDir) {
    env.localModelPath = setup.modelsDir;
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
  } else {
    env.allowLocalModels = false;
    if (setup.modelsUrl) env.remoteHost = setup.modelsUrl;
  }
  return pipeline('feature-extraction', setup.model, { dtype: setup.dtype as 'q8', device: 'cpu' });
}

/** The message with its cause's ("fetch failed: connect ECONNREFUSED 127.0.0.1:1"). */
function describe(error: unknown): string {
  const { message, cause } = error as Error & { cause?: Error };
  const text = message ?? String(error);
  return cause?.message ? `${text}: ${cause.message}` : text;
}

async function embed(request: EmbedRequest): Promise<EmbedReply> {
  try {
    // A failed load is retried by the next request: the network or the files may be back.
    loading ??= load().catch((error) => {
      loading = null;
      throw error;
    });
    const extractor = await loading;
    const output = await extractor(request.texts, { pooling: 'mean', normalize: true });
    const dimension = output.dims[output.dims.length - 1];
    return { id: request.id, dimension, vectors: Float32Array.from(output.data as Float32Array) };
  } catch (error) {
    return { id: request.id, error: describe(error) };
  }
}

parentPort!.on('message', async (request: EmbedRequest) => {
  const reply = await embed(request);
  if ('vectors' in reply) parentPort!.postMessage(reply, [reply.vectors.buffer]);
  else parentPort!.postMessage(reply);
});
