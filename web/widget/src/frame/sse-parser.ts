// A text/event-stream parser (the WHATWG "event stream interpretation"), fed chunks as they arrive.

export interface ServerSentEvent {
  event: string;
  data: string;
  id: string | null;
}

export interface SseParser {
  /** Feeds a decoded chunk; returns the events it completed. */
  push(chunk: string): ServerSentEvent[];
  /** The last `id:` seen, for Last-Event-ID on a reconnection. */
  readonly lastEventId: string | null;
  /** The last `retry:` the server asked for, in milliseconds. */
  readonly retry: number | null;
}

export function createSseParser(lastEventId: string | null = null): SseParser {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let retry: number | null = null;
  /** The last chunk ended with \r: a \n starting the next one belongs to that line end. */
  let afterCr = false;

  function line(text: string, out: ServerSentEvent[]): void {
    if (text === '') {
      if (data.length) out.push({ event: event || 'message', data: data.join('\n'), id: lastEventId });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + (text[colon + 1] === ' ' ? 2 : 1));
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  }

  return {
    push(chunk) {
      if (afterCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
      afterCr = chunk.endsWith('\r');
      buffer += chunk;
      const out: ServerSentEvent[] = [];
      const lines = buffer.split(/\r\n|\n|\r/);
      buffer = lines.pop() ?? '';
      for (const text of lines) line(text, out);
      return out;
    },
    get lastEventId() {
      return lastEventId;
    },
    get retry() {
      return retry;
    },
  };
}
