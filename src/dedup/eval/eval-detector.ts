// The matcher an evaluation measures: LOOPDESK_DEDUP_* as the server reads them, with the
// provider named on the command line, logging to stderr (stdout holds the report).
import { DEDUP_PROVIDERS, loadConfig, type DedupConfig } from '../../config.js';
import { createDuplicateDetector } from '../create-detector.js';
import { cachedEmbedder } from './embedding-cache.js';
import type { DuplicateDetector } from '../detector.js';
import type { EmbeddingStore } from '../embedding-detector.js';
import { bandWith, embeddingBand, LEXICAL_BAND, type Band } from '../thresholds.js';

export interface EvalDetector {
  detector: DuplicateDetector;
  /** Its auto-link threshold and where its review band starts. */
  band: Band;
}

/** `embeddingCache`: a folder where the embedder's vectors are kept between runs (embedding-cache.ts). */
export async function evalDetector(providerFlag: string | undefined, store: EmbeddingStore, embeddingCache?: string): Promise<EvalDetector> {
  const config = loadConfig().dedup;
  const provider = (providerFlag ?? config.provider) as DedupConfig['provider'];
  if (!DEDUP_PROVIDERS.includes(provider)) throw new Error(`--provider must be one of ${DEDUP_PROVIDERS.join(', ')}`);
  const logger = { info: (_: object, message: string) => process.stderr.write(`${message}\n`), warn: (_: object, message: string) => process.stderr.write(`warning: ${message}\n`) };
  const detector = await createDuplicateDetector({ ...config, provider }, { store, logger, wrapEmbedder: embeddingCache ? (embedder) => cachedEmbedder(embedder, embeddingCache) : undefined });
  const model = detector.embedder?.model;
  return { detector, band: bandWith(model ? embeddingBand(model) : LEXICAL_BAND, config) };
}
