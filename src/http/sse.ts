// A Server-Sent Events responder on the live channel (src/events/live.ts), for any route that
// streams events: the team's GET /api/v1/events/stream and the widget's conversation stream.
//
//   return sendEventStream(request, reply, { live, filter, frame });
//
// - Headers: `text/event-stream`, `Cache-Control: no-cache`, `X-Accel-Buffering: no` (nginx
//   passes each event on at once), plus whatever the route's hooks set (X-Request-Id, CORS).
// - Framing: `event: <name>`, `id: <event id>`, `data: <JSON on one line>` (a passing event, never
//   stored, has no `id:`). A fresh stream first
//   sends `retry:` and an `id:` with no data: the position it starts at, so that a client that
//   reconnects before any event arrived still resumes from there.
// - Resume: the client's `Last-Event-ID` (a UUIDv7 event id, or that first position) replays, from
//   the events table, what was recorded after it and is still missing; live events that arrive
//   meanwhile wait, and each is sent once. The same catch-up runs when the channel says events may
//   have been missed (a LISTEN connection that dropped).
// - A comment every `heartbeatMs` (LOOPDESK_SSE_HEARTBEAT_MS); the stream ends after `maxStreamMs`.
// - Before each heartbeat the credential that opened the stream is checked again (the request's
//   `stillAuthenticated`, set by the authentication that let it in): a key revoked, a session
//   signed out or a visitor session ended ends the stream, and the reconnection gets its 401.
// - Backpressure: a replay waits for the socket to drain; a live client more than 1 MiB behind is
//   cut off (it reconnects and replays). A client that goes away unsubscribes at once.
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { LiveChannel, LiveEvent, LiveFilter, LiveSubscriber } from '../events/live.js';
import { newId } from '../lib/ids.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Whether the credential the request came with still works; set by the authentication that let it in. */
    stillAuthenticated: (() => Promise<boolean>) | null;
  }
}

/** What one event looks like on a stream: its `event:` name and its `data` (sent as JSON). */
export interface SseFrame {
  event: string;
  data: unknown;
}

export interface EventStreamOptions {
  live: Pick<LiveChannel, 'subscribe' | 'replay' | 'settings'>;
  filter: LiveFilter;
  /** How an event is shown on this stream; null leaves it out. */
  frame(event: LiveEvent): SseFrame | null;
  /** Where to resume; by default the request's Last-Event-ID header (see LastEventIdHeader). */
  lastEventId?: string | null;
  /** Checked before each heartbeat: false ends the stream. By default the request's `stillAuthenticated`. */
  stillAuthenticated?: (() => Promise<boolean>) | null;
}

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** The `Last-Event-ID` request header, for a streaming route's `headers` schema. */
export const LastEventIdHeader = Type.Object({
  'last-event-id': Type.Optional(Type.String({
    pattern: `^(${UUID})?$`,
    description: 'Resume after this event: the `id` of the last event received (EventSource sends it by itself when it reconnects). Empty: from now.',
  })),
});

/** The reconnection delay a browser's EventSource is told to use. */
const RETRY_MS = 1_000;
/** A client this far behind is cut off rather than buffered for without bound. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Live events held while a replay runs; more means the client cannot keep up either. */
const MAX_HELD_EVENTS = 10_000;
/** Ids recently sent, so an event both replayed and announced live goes out once. */
const REMEMBERED_IDS = 64;

/**
 * The JSON of each `data` object, made once however many streams send it: a frame that passes an
 * event's payload through (the team stream) shares one object across all the streams it reaches.
 */
const serialized = new WeakMap<object, string>();

function jsonOf(data: unknown): string {
  if (typeof data !== 'object' || data === null) return JSON.stringify(data);
  let json = serialized.get(data);
  if (json === undefined) serialized.set(data, (json = JSON.stringify(data)));
  return json;
}

class EventStream implements LiveSubscriber {
  readonly out = new PassThrough();
  private readonly sent = new Set<string>();
  private held: LiveEvent[] | null = null;
  private resyncWanted = false;
  private ended = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private checking = false;
  private unsubscribe: () => void = () => {};

  private readonly options: EventStreamOptions;
  /** The last event sent (or the position the stream started at): a replay starts after it. */
  private cursor: string;
  private readonly onError: (error: unknown) => void;

  constructor(options: EventStreamOptions, cursor: string, onError: (error: unknown) => void) {
    this.options = options;
    this.cursor = cursor;
    this.onError = onError;
  }

  async open(fresh: boolean): Promise<void> {
    const { heartbeatMs, maxStreamMs } = this.options.live.settings;
    if (fresh) this.write(`retry: ${RETRY_MS}\nid: ${this.cursor}\n\n`);
    this.timers.push(setInterval(() => void this.heartbeat(), heartbeatMs));
    if (maxStreamMs > 0) this.timers.push(setTimeout(() => this.end(), maxStreamMs));
    for (const timer of this.timers) timer.unref();
    this.held = [];
    try {
      this.unsubscribe = await this.options.live.subscribe(this.options.filter, this);
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  /** The heartbeat comment, once the credential is known to still work (a failed check is not taken as a refusal). */
  private async heartbeat(): Promise<void> {
    const check = this.options.stillAuthenticated;
    if (check && !this.checking) {
      this.checking = true;
      try {
        if (!(await check())) return this.end();
      } catch (error) {
        this.onError(error);
      } finally {
        this.checking = false;
      }
    }
    this.write(': heartbeat\n\n');
  }

  deliver(event: LiveEvent): void {
    if (this.ended) return;
    if (!this.held) {
      this.send(event);
      return;
    }
    this.held.push(event);
    if (this.held.length > MAX_HELD_EVENTS) this.end();
  }

  resync(): void {
    if (this.held) this.resyncWanted = true;
    else void this.catchUp();
  }

  /** Replays what was recorded after the cursor, then sends the live events held meanwhile. */
  async catchUp(): Promise<void> {
    if (this.ended) return;
    this.held ??= [];
    try {
      do {
        this.resyncWanted = false;
        for await (const event of this.options.live.replay(this.options.filter, this.cursor)) {
          if (this.ended) return;
          if (!this.send(event) && !this.ended) await this.drained();
        }
      } while (this.resyncWanted && !this.ended);
    } catch (error) {
      // The table could not be read: the client reconnects and resumes from what it has.
      this.onError(error);
      this.end();
      return;
    }
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.send(event);
  }

  /** Writes the event unless it already went out; false when the socket is backed up. */
  private send(event: LiveEvent): boolean {
    if (event.id === null) return this.sendPassing(event);
    if (this.sent.has(event.id)) return true;
    this.sent.add(event.id);
    if (this.sent.size > REMEMBERED_IDS) this.sent.delete(this.sent.values().next().value!);
    this.cursor = event.id;
    const frame = this.options.frame(event);
    if (!frame) return true;
    return this.write(`event: ${frame.event}\nid: ${event.id}\ndata: ${jsonOf(frame.data)}\n\n`);
  }

  /** A passing event (presence) has no `id:` line: the client's resume position stays where it was. */
  private sendPassing(event: LiveEvent): boolean {
    const frame = this.options.frame(event);
    return frame ? this.write(`event: ${frame.event}\ndata: ${jsonOf(frame.data)}\n\n`) : true;
  }

  private write(chunk: string): boolean {
    if (this.ended) return false;
    const flowing = this.out.write(chunk);
    if (this.out.writableLength > MAX_BUFFERED_BYTES) this.end();
    return flowing && !this.ended;
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.out.off('drain', done).off('close', done);
        resolve();
      };
      this.out.on('drain', done).on('close', done);
    });
  }

  /** Ends the response normally (shutdown, maximum age, a client too far behind). */
  end(): void {
    if (this.stop()) this.out.end();
  }

  /** The client went away: nothing more to write. */
  abandon(): void {
    if (this.stop()) this.out.destroy();
  }

  private stop(): boolean {
    if (this.ended) return false;
    this.ended = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.unsubscribe();
    this.held = null;
    return true;
  }
}

/**
 * Answers the request with a stream of the live events matching `filter`, framed by `frame`.
 * Subscribes before answering, so a channel that cannot listen is an ordinary 500.
 */
export async function sendEventStream(request: FastifyRequest, reply: FastifyReply, options: EventStreamOptions): Promise<FastifyReply> {
  const header = request.headers['last-event-id'];
  const resumeFrom = (options.lastEventId !== undefined ? options.lastEventId : typeof header === 'string' ? header : null)?.toLowerCase() || null;
  const stream = new EventStream(
    { ...options, stillAuthenticated: options.stillAuthenticated ?? request.stillAuthenticated },
    resumeFrom ?? newId(),
    (error) => request.log.warn({ err: error }, 'event stream: a replay or a credential check failed'),
  );
  reply.raw.once('close', () => stream.abandon());
  await stream.open(resumeFrom === null);
  void stream.catchUp();
  return reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('x-accel-buffering', 'no')
    .send(stream.out);
}
