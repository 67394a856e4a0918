// Folding (docs/search.md, "Folding"): a conversation job every message asks for, due once the
// conversation has been quiet for LOOPDESK_SEARCH_FOLD_MS (a later message pushes it back). It
// folds the messages written since the last fold into the conversation's search document, in the
// transaction that ends the job and under the conversation's lock, so no message is written
// meanwhile; a run whose lease is gone folds nothing (the next run will).
import type { Db } from '../../db/database.js';
import type { ClaimedConversationJob } from '../../db/repositories/conversation-job.repository.js';
import type { SearchRepository } from '../../db/repositories/search.repository.js';
import type { ConversationJobQueue } from '../conversations/conversation-jobs.js';
import { inTransaction } from '../shared/unit-of-work.js';

export interface SearchFoldJobDeps {
  db: Db;
  jobs: Pick<ConversationJobQueue, 'finish'>;
  search: Pick<SearchRepository, 'fold'>;
}

export function createSearchFoldJob({ db, jobs, search }: SearchFoldJobDeps) {
  return {
    async run(job: ClaimedConversationJob): Promise<void> {
      await inTransaction(db, async (work) => {
        if (await jobs.finish(work, job)) await search.fold(job.conversation_id, work.tx);
      });
    },
  };
}
