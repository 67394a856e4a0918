// Conversation summaries (docs/triage.md): a claimed summary job reads the contact's messages and
// has the summarizer write the summary, with no transaction open (a chat model may take seconds);
// then one transaction, under the conversation's lock, finishes the job and writes the summary
// when it changed, through the conversations' write path (one conversation.updated, with
// previous.ai_summary). A run whose job was asked for again meanwhile writes nothing: the next
// run sees the newer message. The summarizer never fails as a whole (the extractive summary is
// its fallback); anything else that throws leaves the summary as it was, and the job is retried.
import type { Db } from '../../db/database.js';
import type { ClaimedConversationJob } from '../../db/repositories/conversation-job.repository.js';
import type { ConversationRepository } from '../../db/repositories/conversation.repository.js';
import type { IssueRepository } from '../../db/repositories/issue.repository.js';
import type { MessageRepository } from '../../db/repositories/message.repository.js';
import type { Clock } from '../../lib/clock.js';
import type { Summarizer } from '../../summaries/summarizer.js';
import { inTransaction } from '../shared/unit-of-work.js';
import type { ConversationJobQueue } from './conversation-jobs.js';
import type { ConversationWrites } from './conversation.writes.js';

/** What one summary run did, for a latency measurement (a metric, a log line). */
export interface SummaryObservation {
  conversationId: string;
  /** From the contact's latest message to the summary's commit. */
  latencyMs: number;
  /** `chat:<model>` or `extractive`. */
  writer: string;
  /** Whether ai_summary changed (false: the new summary is the old one). */
  changed: boolean;
  /** Why the chat model's answer was not used, when it failed. */
  fallbackReason?: string;
}

export interface ConversationSummaryDeps {
  db: Db;
  conversations: Pick<ConversationRepository, 'findById'>;
  messages: Pick<MessageRepository, 'listByConversation'>;
  /** The product's open issues, whose words the summary prefers. */
  issues: Pick<IssueRepository, 'openTitles'>;
  jobs: Pick<ConversationJobQueue, 'finish'>;
  writes: Pick<ConversationWrites, 'update'>;
  summarizer: Pick<Summarizer, 'summarize'>;
  clock: Clock;
  observe?: (observation: SummaryObservation) => void;
}

/** The product's newest open issues whose titles a summary's sentences are weighed against. */
const VOCABULARY_ISSUES = 100;

export function createConversationSummaries({ db, conversations, messages, issues, jobs, writes, summarizer, clock, observe }: ConversationSummaryDeps) {
  return {
    /** Runs a claimed summary job. */
    async run(job: ClaimedConversationJob): Promise<void> {
      const { workspace_id: workspaceId, conversation_id: conversationId } = job;
      const conversation = await conversations.findById(workspaceId, conversationId);
      // Gone: its job went with it.
      if (!conversation) return;
      const written = (await messages.listByConversation(workspaceId, conversationId)).filter((message) => message.sender_type === 'contact');
      const vocabulary = await issues.openTitles(workspaceId, conversation.product_id, VOCABULARY_ISSUES);
      const summary = await summarizer.summarize({ title: conversation.title, messages: written.map((message) => message.body) }, vocabulary);
      const changed = await inTransaction(db, async (work) => {
        if (!(await jobs.finish(work, job))) return null;
        const current = await conversations.findById(workspaceId, conversationId, work.tx);
        if (!current || summary === null || current.ai_summary === summary.summary) return false;
        await writes.update(work, current, { ai_summary: summary.summary, updated_at: clock.now() });
        return true;
      });
      if (changed === null || summary === null) return;
      observe?.({
        conversationId, latencyMs: Date.parse(clock.now()) - Date.parse(job.requested_at), writer: summary.writer, changed,
        ...(summary.fallbackReason ? { fallbackReason: summary.fallbackReason } : {}),
      });
    },
  };
}

export type ConversationSummaries = ReturnType<typeof createConversationSummaries>;
