// The evaluation's stand-in for embeddingRepository: the same EmbeddingStore contract, kept in
// a Map, so `npm run eval:dedup` needs no database and measures only the matcher.
import type { StoredEmbedding } from '../../db/repositories/embedding.repository.js';
import type { EmbeddingStore } from '../embedding-detector.js';

export function memoryStore(): EmbeddingStore {
  const rows = new Map<string, StoredEmbedding & { workspaceId: string; productId: string }>();
  return {
    async forProduct(workspaceId, productId, model) {
      return [...rows.values()].filter((r) => r.workspaceId === workspaceId && r.productId === productId && r.model === model);
    },
    async forIssues(workspaceId, issueIds, model) {
      return issueIds.flatMap((id) => {
        const row = rows.get(id);
        return row && row.workspaceId === workspaceId && row.model === model ? [row] : [];
      });
    },
    async upsert(embedding) {
      rows.set(embedding.issueId, embedding);
    },
  };
}
