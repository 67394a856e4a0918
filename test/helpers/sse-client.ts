// A Server-Sent Events client for tests and benchmarks: opens a stream over plain HTTP, parses it
// as the WHATWG EventSource parser does (fields, comments, `id:`-only blocks) and lets a test wait
// for what it expects.
import { request as httpRequest, type IncomingMessage, type ClientRequest } from 'node:http';

export interface SseEvent {
  event: string;
  id: string;
  data: string;
  /** When the event's block finished arriving (performance.now()). */
  receivedAt: number;
}

export interface SseStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** The events so far, in order (blocks with data only, as EventSource dispatches them). */
  readonly events: SseEvent[];
  /** Comment lines so far (heartbeats), without the colon. */
  readonly comments: string[];
  /** The last id seen, `id:`-only blocks included: what EventSource would send as Last-Event-ID. */
  readonly lastEventId: string;
  readonly retryMs: number | null;
  /** Resolves when the server ends the response (or it breaks). */
  readonly ended: Promise<void>;
  /** The body of a non-200 answer (an error envelope). */
  body(): Promise<string>;
  /** Resolves with the events once `done(events)` holds; rejects after `timeoutMs`. */
  waitFor(done: (events: SseEvent[]) => boolean, what: string, timeoutMs?: number): Promise<SseEvent[]>;
  waitForComments(count: number, timeoutMs?: number): Promise<void>;
  close(): void;
}

export interface OpenOptions {
  headers?: Record<string, string>;
}

/** Opens `url` and resolves once the response headers arrived. */
export function openStream(url: string, { headers = {} }: OpenOptions = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = httpRequest(url, { headers: { accept: 'text/event-stream', ...headers } });
    req.once('error', reject);
    req.once('response', (res) => resolve(parse(req, res)));
    req.end();
  });
}

function parse(req: ClientRequest, res: IncomingMessage): SseStream {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let block = { event: '', id: null as string | null, data: [] as string[] };
  let lastEventId = '';
  let retryMs: number | null = null;
  let text = '';
  res.setEncoding('utf8');
  const wake = () => {
    for (const waiter of waiters) waiter();
  };

  const line = (raw: string) => {
    if (raw === '') {
      if (block.id !== null) lastEventId = block.id;
      if (block.data.length) events.push({ event: block.event || 'message', id: lastEventId, data: block.data.join('\n'), receivedAt: performance.now() });
      block = { event: '', id: null, data: [] };
      return;
    }
    if (raw.startsWith(':')) {
      comments.push(raw.slice(1).trim());
      return;
    }
    const colon = raw.indexOf(':');
    const field = colon < 0 ? raw : raw.slice(0, colon);
    const value = colon < 0 ? '' : raw.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') block.event = value;
    else if (field === 'data') block.data.push(value);
    else if (field === 'id') block.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
  };

  // Only an error's body is kept whole: a stream's would grow for as long as it is open.
  const keepText = res.statusCode !== 200;
  res.on('data', (chunk: string) => {
    if (keepText) text += chunk;
    buffer += chunk;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop()!;
    for (const raw of lines) line(raw);
    wake();
  });
  const ended = new Promise<void>((resolve) => {
    res.once('end', resolve);
    res.once('close', resolve);
    res.once('error', () => resolve());
  }).then(wake);
  let isEnded = false;
  void ended.then(() => (isEnded = true));

  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    events,
    comments,
    get lastEventId() {
      return lastEventId;
    },
    get retryMs() {
      return retryMs;
    },
    ended,
    body: () => ended.then(() => text),
    waitFor(done, what, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const finish = (outcome: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          outcome();
        };
        const check = () => {
          if (done(events)) finish(() => resolve(events));
          else if (isEnded) finish(() => reject(new Error(`stream ended before ${what}; events: ${JSON.stringify(events).slice(0, 2000)}`)));
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`not ${what} within ${timeoutMs} ms; events: ${JSON.stringify(events).slice(0, 2000)}`))),
          timeoutMs,
        );
        waiters.add(check);
        check();
      });
    },
    async waitForComments(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (comments.length < count) {
        if (Date.now() > deadline) throw new Error(`fewer than ${count} comments within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close() {
      req.destroy();
    },
  };
}

/** Resolves once the server ended the stream; rejects if it is still open after `ms`. */
export async function endedWithin(stream: SseStream, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the stream was still open after ${ms} ms`)), ms);
  });
  try {
    await Promise.race([stream.ended, late]);
  } finally {
    clearTimeout(timer);
  }
}
