// The team's live events: one EventSource on GET /api/v1/events/stream for the whole app (the
// session cookie authenticates it), shared by every screen that listens. Events are what webhooks
// carry, `{ type, timestamp, data }`, and the signed-in member's own `notification.created`. The browser resumes after a drop with Last-Event-ID; if the
// server refuses the stream outright, it is tried again after a pause.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { operations } from './openapi.js';

export type LiveEventType = operations['streamEvents']['responses'][200]['content']['text/event-stream']['event'];

export interface LiveEvent {
  type: LiveEventType;
  timestamp: string;
  data: Record<string, unknown> & { id: string };
}

export type LiveStatus = 'connecting' | 'live' | 'offline';

const EVENT_TYPES: LiveEventType[] = [
  'product.created', 'product.updated', 'issue.created', 'issue.updated', 'conversation.created', 'conversation.updated', 'conversation.sla_breached',
  'message.created', 'release.created', 'release.updated', 'release.published', 'suggestion.created', 'suggestion.updated',
  'notification.created', 'presence',
];
const RETRY_AFTER_REFUSAL_MS = 15_000;

/**
 * How long the stream stays open once no screen listens: a screen replacing another (its listener
 * added a moment after the old one's went) keeps the one stream, and so every event between them.
 */
const LINGER_MS = 10_000;

/** The listening screens' latest handlers: `reload` runs whenever the stream opens (what committed before came in no event). */
interface Listener {
  current: { handler: (event: LiveEvent) => void; reload: () => void };
}
const listeners = new Set<Listener>();
let lingerTimer: ReturnType<typeof setTimeout> | undefined;
const statusListeners = new Set<(status: LiveStatus) => void>();
let source: EventSource | null = null;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let status: LiveStatus = 'offline';

function setStatus(next: LiveStatus) {
  status = next;
  statusListeners.forEach((listener) => listener(next));
}

function deliver(message: MessageEvent<string>) {
  let event: LiveEvent;
  try {
    event = JSON.parse(message.data);
  } catch {
    return;
  }
  if (typeof event?.type === 'string') listeners.forEach((listener) => listener.current.handler(event));
}

function connect() {
  retryTimer = undefined;
  setStatus('connecting');
  source = new EventSource('/api/v1/events/stream');
  source.onopen = () => {
    setStatus('live');
    listeners.forEach((listener) => listener.current.reload());
  };
  // Named events (`event: message.created`) and unnamed ones (`message`) alike.
  source.onmessage = deliver;
  for (const type of EVENT_TYPES) source.addEventListener(type, deliver as EventListener);
  source.onerror = () => {
    if (source?.readyState === EventSource.CLOSED) {
      // Refused (not 200 text/event-stream): the browser gives up, so try again later.
      source = null;
      setStatus('offline');
      retryTimer = setTimeout(() => listeners.size > 0 && connect(), RETRY_AFTER_REFUSAL_MS);
    } else {
      setStatus('connecting');
    }
  };
}

function disconnect() {
  clearTimeout(retryTimer);
  retryTimer = undefined;
  source?.close();
  source = null;
  setStatus('offline');
}

/**
 * Calls the latest `handler` for every live event while the component is mounted, and the latest
 * `reload` each time the stream opens: a screen loads its data as it mounts, and what changed
 * between that load and the stream's opening reaches it only by loading again.
 */
export function useLiveEvents(handler: (event: LiveEvent) => void, reload: () => void): void {
  const latest: Listener = useRef({ handler, reload });
  latest.current = { handler, reload };
  useEffect(() => {
    listeners.add(latest);
    clearTimeout(lingerTimer);
    if (!source && !retryTimer) connect();
    return () => {
      listeners.delete(latest);
      if (listeners.size === 0) lingerTimer = setTimeout(() => listeners.size === 0 && disconnect(), LINGER_MS);
    };
  }, []);
}

export function useLiveStatus(): LiveStatus {
  const [current, setCurrent] = useState(status);
  useEffect(() => {
    statusListeners.add(setCurrent);
    setCurrent(status);
    return () => statusListeners.delete(setCurrent);
  }, []);
  return current;
}
