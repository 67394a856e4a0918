// A conversation's live events over fetch rather than EventSource, because EventSource cannot send
// the session's Authorization header. It reconnects by itself (with backoff, sending Last-Event-ID),
// treats 45 s without a byte (two missed heartbeats) as a dead connection, and stops for good on
// an answer that retrying cannot change (401, 403, 404).
import { backoffDelay, waitToRetry } from './backoff.js';
import { createSseParser, type ServerSentEvent } from './sse-parser.js';

const SILENCE_MS = 45_000;

export interface EventStreamOptions {
  url: string;
  token: string;
  onEvent(event: ServerSentEvent): void;
  /** Every (re)connection: events sent while disconnected may be missing, so the caller catches up. */
  onOpen(): void;
  /** The server refused the stream with this status; no more attempts. */
  onRefused(status: number): void;
}

export interface EventStream {
  close(): void;
}

export function openEventStream(options: EventStreamOptions): EventStream {
  const closing = new AbortController();
  let lastEventId: string | null = null;
  let retryMs: number | null = null;

  /** One connection, read to its end; returns the status that refused it, if one did. */
  async function connect(opened: () => void): Promise<number | null> {
    const connection = new AbortController();
    const stop = () => connection.abort();
    closing.signal.addEventListener('abort', stop);
    let silence = setTimeout(stop, SILENCE_MS);
    try {
      const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${options.token}` };
      if (lastEventId !== null) headers['Last-Event-ID'] = lastEventId;
      const response = await fetch(options.url, { headers, signal: connection.signal, cache: 'no-store', credentials: 'omit' });
      if ([401, 403, 404].includes(response.status)) return response.status;
      if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
      opened();
      options.onOpen();
      const parser = createSseParser(lastEventId);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        clearTimeout(silence);
        silence = setTimeout(stop, SILENCE_MS);
        for (const event of parser.push(value)) options.onEvent(event);
        lastEventId = parser.lastEventId;
        retryMs = parser.retry ?? retryMs;
      }
      return null;
    } finally {
      clearTimeout(silence);
      closing.signal.removeEventListener('abort', stop);
    }
  }

  void (async () => {
    for (let attempt = 0; !closing.signal.aborted; ) {
      let refused: number | null = null;
      let opened = false;
      try {
        refused = await connect(() => (opened = true));
      } catch {
        // A network failure or a dropped connection: retried below.
      }
      if (closing.signal.aborted) return;
      if (refused !== null) return options.onRefused(refused);
      attempt = opened ? 0 : attempt + 1;
      await waitToRetry(Math.max(retryMs ?? 0, backoffDelay(attempt)), closing.signal);
    }
  })();

  return { close: () => closing.abort() };
}
