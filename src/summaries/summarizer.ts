// Who writes a conversation's summary: the chat model when one is configured, else (and whenever
// it fails) the built-in extractive summarizer, over the duplicate detector's embedder when it has
// one. Only the chat model writes a headline.
import type { LlmConfig } from '../config.js';
import type { Embedder } from '../dedup/embedding-detector.js';
import { MAX_ATTEMPTS, MAX_RETRY_AFTER_MS, type ChatModel, type ConversationText } from './chat-model.js';
import { extractiveSummary } from './extractive.js';

export type { ConversationText } from './chat-model.js';

/** Room for the extractive summary, a busy local model embedding its sentences included. */
const EXTRACTIVE_MS = 30_000;

/** How long one summary may take at most: the chat model's attempts, timeouts and waits, then the extractive fallback. */
export const longestSummaryMs = (llm: LlmConfig | null): number =>
  (llm ? MAX_ATTEMPTS * llm.timeoutMs + (MAX_ATTEMPTS - 1) * MAX_RETRY_AFTER_MS : 0) + EXTRACTIVE_MS;

export interface Summary {
  summary: string;
  /** The chat model's issue title; null from the extractive summarizer. */
  headline: string | null;
  /** Who wrote it: `chat:<model>` or `extractive`. */
  writer: string;
  /** Why the chat model's answer was not used, when it was asked and failed. */
  fallbackReason?: string;
}

export interface SummarizerDeps {
  chatModel: Pick<ChatModel, 'name' | 'summarize'> | null;
  /** The duplicate detector's embedder at this moment (the `auto` matcher gains one once its model loads). */
  embedder: () => Embedder | undefined;
}

export function createSummarizer({ chatModel, embedder }: SummarizerDeps) {
  return {
    /**
     * The conversation's summary; null when its contact wrote nothing but whitespace. `vocabulary`:
     * texts whose words the extractive summary prefers (the product's open issues' titles).
     */
    async summarize(conversation: ConversationText, vocabulary: readonly string[] = []): Promise<Summary | null> {
      if (conversation.messages.every((message) => message.trim() === '')) return null;
      let fallbackReason: string | undefined;
      if (chatModel) {
        try {
          return { ...(await chatModel.summarize(conversation)), writer: chatModel.name };
        } catch (error) {
          fallbackReason = (error as Error).message;
        }
      }
      const summary = await extractiveSummary(conversation.messages, { embedder: embedder(), vocabulary });
      return summary === null ? null : { summary, headline: null, writer: 'extractive', ...(fallbackReason ? { fallbackReason } : {}) };
    },
  };
}

export type Summarizer = ReturnType<typeof createSummarizer>;
