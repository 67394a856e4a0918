// One dedicated PostgreSQL connection that LISTENs on a channel for the whole process, outside the
// pool (a pooled connection may be handed to a query at any time, and LISTEN belongs to a session).
// A dropped connection (server restart, network cut, idle kill) is opened again with a growing
// wait; once it listens again the owner is told, since what was notified meanwhile is lost.
import type pg from 'pg';

export interface ListenHandlers {
  /** A notification's payload, in commit order. */
  onNotification(payload: string): void;
  /** The connection was lost and listens again: notifications sent in between were missed. */
  onReconnect(): void;
  onError(error: unknown): void;
}

export interface NotificationListener {
  /** Resolves once the first LISTEN is in place (it keeps trying until then, or until closed). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
/** How often an idle connection is checked (a silently dead peer only shows when something is sent). */
const PING_MS = 15_000;

export function listenOn(Client: typeof pg.Client, connectionString: string, channel: string, handlers: ListenHandlers): NotificationListener {
  let client: pg.Client | null = null;
  let closed = false;
  let listenedOnce = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let pingTimer: NodeJS.Timeout | undefined;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const drop = (lost: pg.Client, error?: unknown) => {
    if (client !== lost) return;
    client = null;
    clearInterval(pingTimer);
    lost.removeAllListeners('notification');
    void lost.end().catch(() => {});
    if (closed) return;
    if (error) handlers.onError(error);
    retryTimer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  async function connect(): Promise<void> {
    // Named, so an operator (or a test) finds it in pg_stat_activity.
    const next = new Client({ connectionString, application_name: 'loopdesk-listen', keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client = next;
    next.on('error', (error) => drop(next, error));
    next.on('end', () => drop(next));
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotification(message.payload ?? '');
    });
    try {
      await next.connect();
      // The channel is a fixed name of ours, never input: quoting it is enough.
      await next.query(`LISTEN "${channel}"`);
    } catch (error) {
      drop(next, error);
      return;
    }
    if (closed || client !== next) return;
    retryMs = FIRST_RETRY_MS;
    pingTimer = setInterval(() => void next.query('select 1').catch((error) => drop(next, error)), PING_MS);
    pingTimer.unref();
    if (listenedOnce) handlers.onReconnect();
    listenedOnce = true;
    markReady();
  }

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(pingTimer);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}
