// The live channel: every event the outbox records reaches the subscribers of this process once its
// transaction has committed (never when it rolls back), whichever process made the write. The
// widget's conversation stream and the team's event stream (src/http/sse.ts) are its subscribers.
//
// - SQLite (one process): the outbox's `afterCommit` hands the event to this process's subscribers.
// - PostgreSQL (any number of processes): the outbox NOTIFYs in the write's transaction (delivered
//   at commit, in commit order, dropped on rollback) a small note: the event's id, workspace, type
//   and conversation. Each process keeps one dedicated LISTEN connection; a note no subscriber of
//   the process wants is dropped there, the others are loaded from `events` once per process, in
//   batches, and fanned out in the order they arrived.
//
// A passing event (presence: docs/automation.md, "Collision") is never stored: `pass` hands it to
// this process's subscribers at once (SQLite), or NOTIFYs it whole, outside any transaction
// (PostgreSQL); it has no id, so it is never replayed and never moves a stream's resume position.
//
// A subscriber filters by workspace, and optionally by event types and conversation. Whatever was
// missed (a LISTEN connection dropped and came back) is caught up from the events table: the
// subscriber is told to `resync`, and replays from its last event (`replay`).
import { STREAM_DEFAULTS, type StreamConfig } from '../config.js';
import type { Dialect, Notifications } from '../db/dialect.js';
import type { EventRepository, LiveEventRow } from '../db/repositories/event.repository.js';
import type { NotificationListener } from '../db/pg-listener.js';
import type { Work } from '../domain/shared/unit-of-work.js';
import { TEAM_STREAM_TYPES, type EventPayload, type LiveEventType } from './event-types.js';

export interface LiveEvent {
  /** The recorded event's id; null for a passing event (never stored, so never replayed). */
  id: string | null;
  workspaceId: string;
  type: LiveEventType;
  /** The conversation it is about (`conversation.*`: the conversation; `message.created`, `suggestion.*` and `presence`: theirs), else null. */
  conversationId: string | null;
  /** The Standard Webhooks payload, as webhooks carry it. */
  payload: EventPayload;
}

/** What crosses between processes: enough to tell whether anyone wants the event before loading it. */
type LiveNote = Omit<LiveEvent, 'payload'> & { payload?: EventPayload };

export interface LiveFilter {
  workspaceId: string;
  /** Only the events of this conversation. */
  conversationId?: string | null;
  /** Only these types; all when absent. */
  types?: readonly LiveEventType[] | null;
}

export interface LiveSubscriber {
  /** A committed event that matches the filter, in commit order. Must not throw. */
  deliver(event: LiveEvent): void;
  /** Events may have been missed (the channel lost its connection for a while): catch up from the last one seen. */
  resync(): void;
  /** The channel is closing (shutdown): end the stream now. */
  end(): void;
}

interface Transport {
  /** Called in the transaction that records the events. */
  send(work: Work, events: readonly LiveEvent[]): Promise<void>;
  /** A passing event, with its payload: to every process now. */
  pass(event: LiveEvent): Promise<void>;
  start(receive: (note: LiveNote) => void, resync: () => void): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'loopdesk_events';
const REPLAY_PAGE = 200;
/** How long a subscription waits for the LISTEN connection before it fails (the database is unreachable). */
const START_TIMEOUT_MS = 10_000;

/** The conversation an event is about, read from its payload. */
export function conversationOf(type: LiveEventType, data: Record<string, unknown>): string | null {
  const id = type === 'message.created' || type === 'presence' || type.startsWith('suggestion.') ? data.conversation_id
    : type === 'conversation.sla_breached' ? (data.conversation as { id?: unknown } | undefined)?.id
    : type.startsWith('conversation.') ? data.id : null;
  return typeof id === 'string' ? id : null;
}

function inProcess(): Transport {
  let receive: ((note: LiveNote) => void) | null = null;
  return {
    // After the response's own work: fanning out to many streams never delays the write's answer.
    send: async (work, events) => {
      for (const event of events) work.afterCommit(() => setImmediate(() => receive?.(event)));
    },
    pass: async (event) => {
      setImmediate(() => receive?.(event));
    },
    start: async (receiver) => {
      receive = receiver;
    },
    close: async () => {
      receive = null;
    },
  };
}

const encodeNote = ({ id, workspaceId, type, conversationId }: LiveEvent) => JSON.stringify([id, workspaceId, type, conversationId]);
/** A passing event travels whole: there is nothing to load it from. */
const encodePassing = (event: LiveEvent) => JSON.stringify([null, event.workspaceId, event.type, event.conversationId, event.payload]);

function decodeNote(text: string): LiveNote | null {
  try {
    const [id, workspaceId, type, conversationId, payload] = JSON.parse(text) as unknown[];
    const stored = typeof id === 'string';
    const passing = id === null && typeof payload === 'object' && payload !== null;
    if (!(stored || passing) || typeof workspaceId !== 'string' || !TEAM_STREAM_TYPES.includes(type as LiveEventType)) return null;
    return {
      id: stored ? id : null,
      workspaceId,
      type: type as LiveEventType,
      conversationId: typeof conversationId === 'string' ? conversationId : null,
      ...(passing ? { payload: payload as EventPayload } : {}),
    };
  } catch {
    return null;
  }
}

function acrossProcesses(notifications: Notifications, onError: (error: unknown) => void): Transport {
  let listener: NotificationListener | null = null;
  return {
    send: (work, events) => notifications.notifyOnCommit(work.tx, CHANNEL, events.map(encodeNote)),
    pass: (event) => notifications.notify(CHANNEL, encodePassing(event)),
    async start(receive, resync) {
      listener = notifications.listen(CHANNEL, {
        onNotification: (text) => {
          const note = decodeNote(text);
          if (note) receive(note);
        },
        onReconnect: resync,
        onError,
      });
      await listener.ready;
    },
    close: async () => listener?.close(),
  };
}

const matches = (filter: LiveFilter, note: LiveNote) =>
  (!filter.types || filter.types.includes(note.type)) && (!filter.conversationId || filter.conversationId === note.conversationId);

function toLiveEvent(row: LiveEventRow): LiveEvent {
  const payload = JSON.parse(row.payload) as EventPayload;
  const type = row.type as LiveEventType;
  return { id: row.id, workspaceId: row.workspace_id, type, conversationId: conversationOf(type, payload.data), payload };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface LiveChannelDeps {
  dialect: Pick<Dialect, 'notifications'>;
  events: Pick<EventRepository, 'findMany' | 'listAfter'>;
  onError: (error: unknown) => void;
  /** How streams behave (src/http/sse.ts reads them here); STREAM_DEFAULTS when not given. */
  settings?: StreamConfig;
}

export function createLiveChannel({ dialect, events, onError, settings = STREAM_DEFAULTS }: LiveChannelDeps) {
  const transport = dialect.notifications ? acrossProcesses(dialect.notifications, onError) : inProcess();
  const byWorkspace = new Map<string, Set<{ filter: LiveFilter; subscriber: LiveSubscriber }>>();
  const queue: LiveNote[] = [];
  let draining = false;
  let starting: Promise<void> | null = null;
  let closed = false;

  const everyone = () => [...byWorkspace.values()].flatMap((entries) => [...entries]);
  const wantedHere = (note: LiveNote) => [...(byWorkspace.get(note.workspaceId) ?? [])].some(({ filter }) => matches(filter, note));

  function fanOut(event: LiveEvent): void {
    for (const { filter, subscriber } of byWorkspace.get(event.workspaceId) ?? []) {
      if (matches(filter, event)) subscriber.deliver(event);
    }
  }

  function resyncAll(): void {
    for (const { subscriber } of everyone()) subscriber.resync();
  }

  /** The payloads of the notes that came without one, by event id: one query per workspace in the batch. */
  async function payloadsOf(notes: LiveNote[]): Promise<Map<string, EventPayload>> {
    const idsByWorkspace = new Map<string, string[]>();
    for (const note of notes) {
      if (!note.payload && note.id) idsByWorkspace.set(note.workspaceId, [...(idsByWorkspace.get(note.workspaceId) ?? []), note.id]);
    }
    const rows = await Promise.all([...idsByWorkspace].map(([workspaceId, ids]) => events.findMany(workspaceId, ids)));
    return new Map(rows.flat().map((row) => [row.id, JSON.parse(row.payload) as EventPayload]));
  }

  async function drain(): Promise<void> {
    draining = true;
    while (queue.length > 0) {
      const batch = queue.splice(0);
      try {
        const loaded = await payloadsOf(batch);
        for (const note of batch) {
          const payload = note.payload ?? (note.id ? loaded.get(note.id) : undefined);
          if (payload && !closed) fanOut({ ...note, payload });
        }
      } catch (error) {
        // The batch could not be loaded: the subscribers catch up from the table once they can.
        onError(error);
        resyncAll();
      }
    }
    draining = false;
  }

  function receive(note: LiveNote): void {
    if (closed || !wantedHere(note)) return;
    queue.push(note);
    if (!draining) void drain();
  }

  return {
    settings,

    /** Called by the outbox in the transaction recording `events`: subscribers get them once that commits. */
    announce: (work: Work, events: readonly LiveEvent[]): Promise<void> => transport.send(work, events),

    /** Hands a passing event (one that is never stored: `id` null) to the subscribers of every process, now. */
    pass: (event: LiveEvent): Promise<void> => transport.pass(event),

    /**
     * Adds a subscriber; resolves once every event committed from then on will reach it, with the
     * function that removes it. After close() the subscriber is ended at once.
     */
    async subscribe(filter: LiveFilter, subscriber: LiveSubscriber): Promise<() => void> {
      if (!closed) {
        starting ??= transport.start(receive, resyncAll);
        await withTimeout(starting, START_TIMEOUT_MS, 'the live channel could not listen for events');
      }
      if (closed) {
        subscriber.end();
        return () => {};
      }
      const entry = { filter, subscriber };
      const entries = byWorkspace.get(filter.workspaceId) ?? new Set();
      byWorkspace.set(filter.workspaceId, entries.add(entry));
      return () => {
        entries.delete(entry);
        if (entries.size === 0 && byWorkspace.get(filter.workspaceId) === entries) byWorkspace.delete(filter.workspaceId);
      };
    },

    /** The events matching `filter` recorded after the event `afterId` (a UUIDv7: it need not exist), oldest first. */
    async *replay(filter: LiveFilter, afterId: string): AsyncGenerator<LiveEvent> {
      for (let cursor = afterId; ;) {
        const rows = await events.listAfter(filter.workspaceId, cursor, filter.types ?? null, REPLAY_PAGE);
        for (const row of rows) {
          const event = toLiveEvent(row);
          if (matches(filter, event)) yield event;
        }
        if (rows.length < REPLAY_PAGE) return;
        cursor = rows[rows.length - 1].id;
      }
    },

    /** How many subscribers this process has (the bench and tests read it). */
    subscriberCount: () => everyone().length,

    /** Ends every subscriber and stops listening; later subscribers are ended at once. */
    async close(): Promise<void> {
      closed = true;
      const all = everyone();
      byWorkspace.clear();
      for (const { subscriber } of all) subscriber.end();
      await transport.close();
    },
  };
}

export type LiveChannel = ReturnType<typeof createLiveChannel>;
