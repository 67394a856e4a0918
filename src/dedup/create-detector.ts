// createDuplicateDetector(config, deps): the matcher LOOPDESK_DEDUP_PROVIDER asks for. `auto`
// tries the local model once at startup and falls back to `lexical` with one warning.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { DedupConfig } from '../config.js';
import type { Clock } from '../lib/clock.js';
import type { DedupLogger, DuplicateDetector } from './detector.js';
import { createEmbeddingDetector, type EmbeddingStore, type Embedder } from './embedding-detector.js';
import { createLexicalDetector } from './lexical.js';
import { localEmbedder } from './local-embedder.js';
import { openAiEmbedder, openAiJudge } from './openai.js';
import { embeddingThreshold, LEXICAL_THRESHOLD } from './thresholds.js';

export interface DetectorDeps {
  /** embeddingRepository(db) in the server; an in-memory store in the evaluation. */
  store: EmbeddingStore;
  logger: DedupLogger;
  clock?: Clock;
}

/** Where transformers.js keeps downloaded models when LOOPDESK_MODELS_DIR is not set. */
export const MODEL_CACHE_DIR = join(homedir(), '.cache', 'loopdesk', 'models');

function embeddingDetector(config: DedupConfig, deps: DetectorDeps, embedder: Embedder): DuplicateDetector {
  const { openai } = config;
  return createEmbeddingDetector({
    embedder,
    store: deps.store,
    threshold: config.threshold ?? embeddingThreshold(embedder.model),
    judge: openai.chatModel ? openAiJudge(openai, openai.chatModel) : undefined,
    logger: deps.logger,
    clock: deps.clock,
  });
}

const local = (config: DedupConfig) =>
  localEmbedder({ model: config.embeddingModel, dtype: config.embeddingDtype, modelsDir: config.modelsDir, cacheDir: MODEL_CACHE_DIR });

export async function createDuplicateDetector(config: DedupConfig, deps: DetectorDeps): Promise<DuplicateDetector> {
  switch (config.provider) {
    case 'lexical':
      return createLexicalDetector(config.threshold ?? LEXICAL_THRESHOLD);
    case 'openai':
      return embeddingDetector(config, deps, openAiEmbedder(config.openai, config.openai.embeddingModel));
    case 'local':
      return embeddingDetector(config, deps, local(config));
    case 'auto': {
      const embedder = local(config);
      try {
        await embedder.embed(['loopdesk']);
      } catch (error) {
        await embedder.close();
        const source = config.modelsDir ? `from LOOPDESK_MODELS_DIR (${config.modelsDir})` : `by download into ${MODEL_CACHE_DIR}`;
        deps.logger.warn(
          { err: error, dedup: 'lexical' },
          `Duplicate detection uses the lexical matcher, which only merges reports worded almost identically: ` +
            `the multilingual model ${config.embeddingModel} could not be loaded ${source}. To enable it, let the server ` +
            `download it once (about 120 MB) or put its files in LOOPDESK_MODELS_DIR/${config.embeddingModel}; or use an ` +
            `OpenAI-compatible server with LOOPDESK_DEDUP_PROVIDER=openai and LOOPDESK_OPENAI_BASE_URL. ` +
            `LOOPDESK_DEDUP_PROVIDER=lexical chooses the lexical matcher without this warning.`,
        );
        return createLexicalDetector(config.threshold ?? LEXICAL_THRESHOLD);
      }
      const detector = embeddingDetector(config, deps, embedder);
      deps.logger.info({ dedup: detector.name }, `Duplicate detection uses ${detector.name}`);
      return detector;
    }
  }
}
