// Full-text search: the dialect's (src/db/full-text.ts).
import type { FullTextQuery, FullTextSearch } from '../full-text.js';
import type { Executor } from './executor.js';

export function searchRepository(db: Executor, fullText: FullTextSearch) {
  return {
    search: (query: FullTextQuery, tx: Executor = db) => fullText.search(tx, query),
    /** Folds the conversation's unfolded messages into its document (docs/search.md, "Folding"). */
    fold: (conversationId: string, tx: Executor) => fullText.fold(tx, conversationId),
  };
}

export type SearchRepository = ReturnType<typeof searchRepository>;
