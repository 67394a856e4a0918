// The chat: the visitor's latest chat conversation, its live events, the outbox of messages on
// their way, and the rating once the team resolved it. Components render `store`; they call the
// methods here and nothing else.
import { ApiError, type WidgetApi } from './api.js';
import { backoffDelay, waitToRetry } from './backoff.js';
import { openEventStream, type EventStream } from './event-stream.js';
import { Outbox, type QueuedMessage } from './outbox.js';
import type { SessionKeeper } from './session.js';
import type { ServerSentEvent } from './sse-parser.js';
import { Store } from './store.js';
import type { ConversationStatus, KeyValueStore, VisitorConversation, VisitorConversationSummary, VisitorMessage } from './types.js';

export interface ChatState {
  loading: boolean;
  conversation: VisitorConversation | null;
  messages: VisitorMessage[];
  queue: readonly QueuedMessage[];
  /** What the live region says: the latest reply or change, for screen readers. */
  announcement: string;
  /** A problem to show (role=alert), or null. */
  problem: string | null;
}

const byTime = (a: VisitorMessage, b: VisitorMessage) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
const speaker = (message: VisitorMessage) => (message.sender_type === 'system' ? 'Update' : message.sender_name || 'Support');

export class Chat {
  readonly store = new Store<ChatState>({ loading: true, conversation: null, messages: [], queue: [], announcement: '', problem: null });
  private readonly outbox: Outbox;
  private stream: EventStream | null = null;
  private delivering = false;

  constructor(
    private readonly api: WidgetApi,
    private readonly sessions: SessionKeeper,
    storage: KeyValueStore,
  ) {
    this.outbox = new Outbox(
      storage,
      {
        start: (message) => this.post<VisitorConversation>('conversations', { body: message.body }, message.id),
        reply: (message) => this.post<VisitorMessage>(`conversations/${message.conversationId}/messages`, { body: message.body }, message.id),
        resetSession: () => sessions.drop(),
      },
      {
        changed: (queue) => this.store.update({ queue }),
        started: (_message, conversation) => this.show(conversation),
        replied: (_message, sent) => this.merge([sent], false),
        rejected: (message, error) => this.store.update({ problem: `Your message “${message.body.slice(0, 60)}” was not sent: ${error.message}` }),
      },
    );
    this.store.update({ queue: this.outbox.queue });
  }

  /** The latest chat of a returning visitor, then whatever the outbox still holds. */
  async load(): Promise<void> {
    const session = this.sessions.current();
    try {
      if (session) {
        const { data } = await this.api.request<{ data: VisitorConversationSummary[] }>('GET', 'conversations', { token: session.token });
        const latest = data.find((conversation) => conversation.type === 'chat');
        if (latest) await this.refresh(latest.id, false);
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) this.sessions.drop();
    } finally {
      this.store.update({ loading: false });
    }
    void this.deliver();
  }

  /** Queues a message for the conversation on screen (a resolved one too: the team sees the follow-up), or a new one. */
  send(body: string): void {
    const { conversation } = this.store.state;
    if (conversation?.status === 'dismissed') this.startNew();
    this.outbox.add(body, this.store.state.conversation?.id ?? null);
    void this.deliver();
  }

  /** Leaves the conversation on screen: the next message starts another. */
  startNew(): void {
    this.closeStream();
    this.store.update({ conversation: null, messages: [], announcement: '', problem: null });
  }

  async rate(rating: number): Promise<void> {
    const { conversation } = this.store.state;
    if (!conversation) return;
    const session = await this.sessions.ensure();
    try {
      const { data } = await this.api.request<{ data: VisitorConversation }>('PUT', `conversations/${conversation.id}/rating`, { body: { rating }, token: session.token });
      this.store.update({ conversation: { ...conversation, rating: data.rating }, announcement: `Thank you: you rated this conversation ${rating} out of 5.`, problem: null });
    } catch (error) {
      this.store.update({ problem: `The rating was not saved: ${(error as Error).message}` });
    }
  }

  dismissProblem(): void {
    this.store.update({ problem: null });
  }

  /** Sends the outbox, retrying with backoff (or when the browser is back online) until it is empty. */
  async deliver(): Promise<void> {
    if (this.delivering) return void this.outbox.flush();
    this.delivering = true;
    try {
      for (let attempt = 0; ; attempt++) {
        const blocked = await this.outbox.flush();
        if (!blocked) return;
        await waitToRetry(blocked.retryAfterMs ?? backoffDelay(attempt));
      }
    } finally {
      this.delivering = false;
    }
  }

  private async post<T>(path: string, body: unknown, idempotencyKey: string): Promise<T> {
    const session = await this.sessions.ensure();
    const { data } = await this.api.request<{ data: T }>('POST', path, { body, token: session.token, idempotencyKey });
    return data;
  }

  private show(conversation: VisitorConversation): void {
    const changed = this.store.state.conversation?.id !== conversation.id;
    this.store.update({ conversation, messages: [...(conversation.messages ?? [])].sort(byTime) });
    if (changed || !this.stream) this.openStream(conversation.id);
  }

  /** Messages not seen yet, in time order; `announce`: read the team's out to screen readers. */
  private merge(incoming: VisitorMessage[], announce: boolean): void {
    const known = new Set(this.store.state.messages.map((message) => message.id));
    const fresh = incoming.filter((message) => !known.has(message.id));
    if (!fresh.length) return;
    const spoken = fresh.filter((message) => message.sender_type !== 'contact').map((message) => `${speaker(message)}: ${message.body}`);
    this.store.update({
      messages: [...this.store.state.messages, ...fresh].sort(byTime),
      ...(announce && spoken.length ? { announcement: spoken.join('\n') } : {}),
    });
  }

  private async refresh(id: string, announce: boolean): Promise<void> {
    const session = this.sessions.current();
    if (!session) return;
    const { data } = await this.api.request<{ data: VisitorConversation }>('GET', `conversations/${id}`, { token: session.token });
    if (this.store.state.conversation?.id === id) {
      this.setStatus(data.status);
      this.merge(data.messages ?? [], announce);
    } else {
      this.show(data);
    }
  }

  private setStatus(status: ConversationStatus): void {
    const { conversation } = this.store.state;
    if (!conversation || conversation.status === status) return;
    const announcement = status === 'resolved' ? 'The team marked this conversation resolved. You can rate it below.' : this.store.state.announcement;
    this.store.update({ conversation: { ...conversation, status }, announcement });
  }

  private openStream(id: string): void {
    this.closeStream();
    const session = this.sessions.current();
    if (!session) return;
    this.stream = openEventStream({
      url: new URL(`conversations/${id}/events`, this.api.base).href,
      token: session.token,
      onOpen: () => void this.refresh(id, true).catch(() => undefined),
      onRefused: (status) => {
        if (status === 401) this.sessions.drop();
        this.stream = null;
      },
      onEvent: (event) => this.onEvent(event),
    });
  }

  private onEvent(event: ServerSentEvent): void {
    try {
      if (event.event === 'message') this.merge([JSON.parse(event.data) as VisitorMessage], true);
      else if (event.event === 'status') this.setStatus((JSON.parse(event.data) as { status: ConversationStatus }).status);
    } catch {
      // A malformed event is skipped; the next catch-up on reconnection brings the truth.
    }
  }

  private closeStream(): void {
    this.stream?.close();
    this.stream = null;
  }
}
