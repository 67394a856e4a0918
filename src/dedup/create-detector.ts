// createDuplicateDetector(config, deps): the matcher LOOPDESK_DEDUP_PROVIDER asks for. `auto`
// loads the local model before answering when its files are on disk; otherwise it answers with
// `lexical` at once, fetches the model in the background and switches to it when it is loaded.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { DedupConfig } from '../config.js';
import type { Clock } from '../lib/clock.js';
import type { DedupLogger, DuplicateDetector } from './detector.js';
import { createEmbeddingDetector, type EmbeddingStore, type Embedder } from './embedding-detector.js';
import { createLexicalDetector } from './lexical.js';
import { localEmbedder } from './local-embedder.js';
import { loadInBackground } from './model-loader.js';
import { openAiEmbedder, openAiJudge } from './openai.js';
import { createSwitchingDetector } from './switching-detector.js';
import { bandWith, embeddingBand, LEXICAL_BAND } from './thresholds.js';

export interface DetectorDeps {
  /** embeddingRepository(db) in the server; an in-memory store in the evaluation. */
  store: EmbeddingStore;
  logger: DedupLogger;
  clock?: Clock;
  /** Wraps the embedding model (the evaluations keep its vectors between runs: eval/embedding-cache.ts). */
  wrapEmbedder?: (embedder: Embedder) => Embedder;
}

/** Where transformers.js keeps downloaded models when LOOPDESK_MODELS_DIR is not set. */
export const MODEL_CACHE_DIR = join(homedir(), '.cache', 'loopdesk', 'models');

function embeddingDetector(config: DedupConfig, deps: DetectorDeps, model: Embedder): DuplicateDetector {
  const { openai } = config;
  const embedder = deps.wrapEmbedder?.(model) ?? model;
  const band = bandWith(embeddingBand(embedder.model), config);
  return createEmbeddingDetector({
    embedder,
    store: deps.store,
    threshold: band.autoLink,
    reviewThreshold: band.review,
    judge: openai.chatModel ? openAiJudge(openai, openai.chatModel) : undefined,
    logger: deps.logger,
    clock: deps.clock,
  });
}

const local = (config: DedupConfig) =>
  localEmbedder({
    model: config.embeddingModel, dtype: config.embeddingDtype, modelsDir: config.modelsDir, modelsUrl: config.modelsUrl, cacheDir: MODEL_CACHE_DIR,
  });

const lexical = (config: DedupConfig) => {
  const band = bandWith(LEXICAL_BAND, config);
  return createLexicalDetector(band.autoLink, band.review);
};

/** transformers.js's ONNX file name for each LOOPDESK_EMBEDDING_DTYPE. */
const ONNX_FILES: Record<string, string> = { q8: 'model_quantized.onnx', fp32: 'model.onnx', fp16: 'model_fp16.onnx', q4: 'model_q4.onnx' };

/** Whether the model's files are in LOOPDESK_MODELS_DIR, or in the download cache (where transformers.js puts them). */
function modelOnDisk(config: DedupConfig): boolean {
  const dir = join(config.modelsDir ?? MODEL_CACHE_DIR, config.embeddingModel);
  return ['config.json', 'tokenizer.json', join('onnx', ONNX_FILES[config.embeddingDtype])].every((file) => existsSync(join(dir, file)));
}

const CHOOSE = 'LOOPDESK_DEDUP_PROVIDER=lexical, openai or local chooses a matcher instead';

const waitingFor = (config: DedupConfig): string =>
  config.modelsDir
    ? `Waiting for the files of the model ${config.embeddingModel} in LOOPDESK_MODELS_DIR (${config.modelsDir}); ` +
      `duplicate detection uses the lexical matcher until they load (${CHOOSE}).`
    : `Fetching the model ${config.embeddingModel} in the background (once, into ${MODEL_CACHE_DIR}); ` +
      `duplicate detection uses the lexical matcher until it is ready (${CHOOSE}).`;

/** The reason alone: the worker's own message, without the embedder's "local model … failed" around it, nor a final period. */
const reason = (error: unknown): string => {
  const { message, cause } = error as Error;
  return (cause instanceof Error ? cause.message : String(message ?? error)).replace(/\.$/, '');
};

const seconds = (ms: number): string => (ms < 60_000 ? `${ms / 1000} s` : `${Math.round(ms / 60_000)} min`);

// One line per event, with no fields beside the message: on a terminal that stays one line.
async function autoDetector(config: DedupConfig, deps: DetectorDeps): Promise<DuplicateDetector> {
  const onDisk = modelOnDisk(config);
  if (!onDisk) deps.logger.info({}, waitingFor(config));
  const embedder = local(config);
  const detector = createSwitchingDetector(lexical(config), async () => {
    loading.stop();
    await embedder.close();
  });
  const loading = loadInBackground({
    attempt: () => embedder.embed(['loopdesk']),
    firstRetryMs: config.modelRetryMs,
    loaded: () => {
      detector.switchTo(embeddingDetector(config, deps, embedder));
      deps.logger.info({}, `Duplicate detection uses ${detector.name}.`);
    },
    failed: (error, retryInMs) =>
      deps.logger.warn({},
        `Could not load the model ${config.embeddingModel} (${reason(error)}); duplicate detection stays on the lexical matcher ` +
          `and tries again in ${seconds(retryInMs)}.`),
  });
  // A model on disk loads in a few seconds: answering with it from the first request keeps
  // decisions consistent across restarts.
  if (onDisk) await loading.firstAttempt;
  return detector;
}

export async function createDuplicateDetector(config: DedupConfig, deps: DetectorDeps): Promise<DuplicateDetector> {
  switch (config.provider) {
    case 'lexical':
      return lexical(config);
    case 'openai':
      return embeddingDetector(config, deps, openAiEmbedder(config.openai, config.openai.embeddingModel));
    case 'local':
      return embeddingDetector(config, deps, local(config));
    case 'auto':
      return autoDetector(config, deps);
  }
}
