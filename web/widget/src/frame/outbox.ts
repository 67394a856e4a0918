// Messages the visitor sent, kept in localStorage until the server has them: typed offline, they
// survive a reload and go out once the connection is back, in order. A retry after an answer that
// never arrived must not post a message twice: every attempt carries the message's id as
// Idempotency-Key, so the server answers a retry of a message it wrote with the stored answer
// instead of writing it again.
import { ApiError, OfflineError } from './api.js';
import type { KeyValueStore, VisitorConversation, VisitorMessage } from './types.js';

export interface QueuedMessage {
  /** Also the Idempotency-Key of every attempt to send it. */
  id: string;
  /** null: the message starts a new conversation (and the ones queued after it follow it there). */
  conversationId: string | null;
  body: string;
  queuedAt: string;
}

export interface OutboxTransport {
  /** POST /conversations with the message as its first one. */
  start(message: QueuedMessage): Promise<VisitorConversation>;
  /** POST /conversations/{id}/messages. */
  reply(message: QueuedMessage & { conversationId: string }): Promise<VisitorMessage>;
  /** The session was refused (401): forget it, the next attempt makes a new one. */
  resetSession(): void;
}

export interface OutboxListener {
  changed(queue: readonly QueuedMessage[]): void;
  started(message: QueuedMessage, conversation: VisitorConversation): void;
  replied(message: QueuedMessage, sent: VisitorMessage): void;
  /** The server refused the message for good (too long, widget disabled, …): it leaves the queue. */
  rejected(message: QueuedMessage, error: ApiError): void;
}

/** Why a flush stopped before the queue was empty: try again later, unchanged. */
export type Blocked = { retryAfterMs: number | null };

const QUEUE = 'outbox';

export function newMessageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export class Outbox {
  private flushing: Promise<Blocked | null> | null = null;

  private readonly store: KeyValueStore;
  private readonly transport: OutboxTransport;
  private readonly listener: OutboxListener;
  private readonly now: () => Date;

  constructor(store: KeyValueStore, transport: OutboxTransport, listener: OutboxListener, now: () => Date = () => new Date()) {
    this.store = store;
    this.transport = transport;
    this.listener = listener;
    this.now = now;
  }

  get queue(): QueuedMessage[] {
    return this.store.get<QueuedMessage[]>(QUEUE) ?? [];
  }

  add(body: string, conversationId: string | null): QueuedMessage {
    const message = { id: newMessageId(), conversationId, body, queuedAt: this.now().toISOString() };
    this.save([...this.queue, message]);
    return message;
  }

  /** Sends the queue in order; null once it is empty, else why it stopped. One flush at a time. */
  flush(): Promise<Blocked | null> {
    this.flushing ??= this.sendAll().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private save(queue: QueuedMessage[]): void {
    this.store.set(QUEUE, queue);
    this.listener.changed(queue);
  }

  private async sendAll(): Promise<Blocked | null> {
    let refusedSession = false;
    for (let message = this.queue[0]; message; message = this.queue[0]) {
      try {
        await this.send(message);
      } catch (error) {
        // The message stays first in the queue, with its id: the next attempt is the same request.
        if (error instanceof OfflineError) return { retryAfterMs: null };
        if (!(error instanceof ApiError)) throw error;
        if (error.transient) return { retryAfterMs: error.retryAfter === null ? null : error.retryAfter * 1000 };
        if (error.status === 401 && !refusedSession) {
          refusedSession = true;
          this.transport.resetSession();
        } else if (error.status === 404 && message.conversationId !== null) {
          // The conversation is not this visitor's any more (a new anonymous session): start anew.
          this.reassign(message.conversationId, null);
        } else {
          this.save(this.queue.filter((queued) => queued.id !== message.id));
          this.listener.rejected(message, error);
        }
      }
    }
    return null;
  }

  private async send(message: QueuedMessage): Promise<void> {
    const { conversationId } = message;
    if (conversationId === null) {
      const conversation = await this.transport.start(message);
      this.remove(message.id);
      this.reassign(null, conversation.id);
      this.listener.started(message, conversation);
    } else {
      const sent = await this.transport.reply({ ...message, conversationId });
      this.remove(message.id);
      this.listener.replied(message, sent);
    }
  }

  private remove(id: string): void {
    this.save(this.queue.filter((queued) => queued.id !== id));
  }

  private reassign(from: string | null, to: string | null): void {
    this.save(this.queue.map((queued) => (queued.conversationId === from ? { ...queued, conversationId: to } : queued)));
  }
}
