// config → database → app → listen, and the graceful shutdown on SIGTERM/SIGINT.
import { fileURLToPath } from 'node:url';
import pino, { type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { buildApp } from './app.js';
import { serverBase, type Config, type LogFormat } from './config.js';
import { createDatabase, type DatabaseHandle } from './db/database.js';
import { embeddingRepository } from './db/repositories/embedding.repository.js';
import { createDuplicateDetector } from './dedup/create-detector.js';
import type { FirstStart } from './domain/accounts/admin.service.js';
import { invitationUrl } from './domain/accounts/invitation.service.js';
import { assertWebAppBuilt } from './http/web-app.js';
import { loadWidgetBuild, type WidgetBuild } from './http/widget/widget-build.js';
import { returnMemoryWhenIdle } from './lib/idle-memory.js';
import { listenOn } from './lib/listen.js';
import { createServices } from './services.js';
import { INBOUND_MAIL_MAX_BYTES } from './http/routes/email.js';
import type { SmtpReceiver } from './smtp/smtp-receiver.js';

/** Where `npm run build:app` puts the team app: dist/web/app, beside this file's dist/main.js. */
const WEB_APP_DIR = fileURLToPath(new URL('./web/app/', import.meta.url));

/** The key and the owner's link; links name LOOPDESK_PUBLIC_URL when set, else where the server listens. */
function printFirstStart({ key, ownerInvitation }: FirstStart, listeningAt: string, publicUrl: string | null): void {
  const baseUrl = publicUrl ?? listeningAt;
  process.stdout.write(
    [
      '',
      'Loopdesk created workspace "Default" with an owner and this API key (shown only once):',
      '',
      `    ${key.key}`,
      '',
      `Sign in to the app: this one-time link lets the owner choose an email, a name and a password (valid until ${ownerInvitation.expires_at}):`,
      '',
      `    ${invitationUrl(baseUrl, ownerInvitation.token)}`,
      '',
      'Try it:',
      '',
      `    curl -H "Authorization: Bearer ${key.key}" ${baseUrl}/api/v1/me`,
      '',
      '',
    ].join('\n'),
  );
}

interface LogOutput {
  readonly stream: DestinationStream;
  /** Writes the lines held so far, and every later one as it comes. */
  release(): void;
  /** Drops the lines held so far (a failed start), and keeps holding later ones. */
  discard(): void;
}

/**
 * Log lines as JSON, or prettified by pino-pretty. Prettified here, on the main thread, into the
 * same stdout stream pino writes JSON to, rather than in pino-pretty's worker transport: lines
 * leave in order, those still buffered at exit are flushed by pino's exit hook as before, and a
 * kill -9 loses what it always lost. Lines wait for `release()` (after listening), so the
 * first-start banner is the first thing a person reads.
 */
function logOutput(format: LogFormat): LogOutput {
  const stdout = pino.destination(1);
  const prettify = format === 'pretty' ? prettyFactory({ ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l', singleLine: true }) : null;
  const write = (line: string) => stdout.write(prettify ? prettify(line) : line);
  let waiting: string[] | null = [];
  return {
    stream: {
      write(line) {
        if (waiting) waiting.push(line);
        else write(line);
      },
    },
    release() {
      const lines = waiting ?? [];
      waiting = null;
      for (const line of lines) write(line);
    },
    discard() {
      waiting = [];
    },
  };
}

export async function startServer(config: Config): Promise<void> {
  returnMemoryWhenIdle();
  // Before the first start's bootstrap, whose key is printed only once.
  assertWebAppBuilt(WEB_APP_DIR);
  const widgetBuild = loadWidgetBuild();
  const database = createDatabase(config.databaseUrl, config.database);
  const output = logOutput(config.logFormat);
  try {
    const logger = pino({ level: config.logLevel }, output.stream);
    const { baseUrl, firstStart } = await serve(config, database, logger, widgetBuild);
    if (firstStart) printFirstStart(firstStart, baseUrl, config.publicUrl);
    output.release();
  } catch (error) {
    // A start that fails says so in one line (src/cli.ts), not after lines saying it listens.
    output.discard();
    throw error;
  }
}

/**
 * Detector → services → first-start bootstrap → app → listen, with the shutdown on
 * SIGTERM/SIGINT; returns the URL it listens on and what the first start made, when it ran.
 */
async function serve(config: Config, database: DatabaseHandle, logger: Logger, widgetBuild: WidgetBuild): Promise<{ baseUrl: string; firstStart: FirstStart | null }> {
  const detector = await createDuplicateDetector(config.dedup, { store: embeddingRepository(database.db), logger });
  const services = createServices(database, {
    detector,
    onBackgroundError: (error) => logger.warn({ err: error }, 'background write failed'),
    webhooks: config.webhooks,
    mail: config.mail,
    email: config.email,
    streams: config.streams,
    eventRetentionDays: config.eventRetentionDays,
    auditRetentionDays: config.auditRetentionDays,
    searchFoldMs: config.searchFoldMs,
    defaultCalendar: config.defaultCalendar,
    appBase: serverBase(config),
    onHousekeeping: (deleted) => logger.info({ deleted }, 'housekeeping: deleted what outlived its use'),
    summaries: {
      ...config.summaries,
      observe: ({ fallbackReason, ...summary }) => {
        if (fallbackReason) logger.warn({ ...summary, reason: fallbackReason }, 'the chat model gave no usable summary; the extractive summary was used');
        else logger.debug(summary, 'conversation summarized');
      },
    },
  });
  let firstStart = null as FirstStart | null;
  await database.migrate(async () => {
    firstStart = await services.admin.bootstrapIfEmpty();
  });

  const app = await buildApp({
    database, services, loggerInstance: logger, requestTimeoutMs: config.requestTimeoutMs,
    rateLimitPerMinute: config.rateLimitPerMinute, widgetRateLimitScale: config.widgetRateLimitScale, publicUrl: config.publicUrl,
    webAppDir: WEB_APP_DIR, widgetBuild, widgetDemo: config.widgetDemo, metricsToken: config.metricsToken,
  });
  app.server.maxConnections = config.maxConnections || Infinity;

  let smtpReceiver: SmtpReceiver | null = null;
  let stopping = false;
  // A request still in flight when the signal arrives would leave its connection idling in
  // keep-alive until the deadline: close each such connection as soon as its response is sent.
  app.server.on('request', (_request, response) => {
    response.once('finish', () => {
      if (stopping) setImmediate(() => app.server.closeIdleConnections());
    });
  });
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const deadline = setTimeout(() => {
      app.log.warn('in-flight requests did not finish in time; closing their connections');
      app.server.closeAllConnections();
    }, config.shutdownGraceMs);
    deadline.unref();
    try {
      // Open event streams end now (their clients reconnect elsewhere with Last-Event-ID), so they never hold the drain.
      // Attempts in flight get the same grace as requests; the rest are handed back before the database closes.
      await Promise.all([
        services.live.close(), app.close(), smtpReceiver?.close(), services.webhookDispatcher.stop(config.shutdownGraceMs), services.housekeeping.stop(),
        services.assignmentQueue.idle(),
      ]);
      await detector.close();
      await database.close();
      services.attachmentStore.close();
      clearTimeout(deadline);
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  // Handled from before listening on, so a signal never finds the process without its handler.
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const { port: httpPort, host: httpHost } = config;
  await listenOn('the server', { port: httpPort, host: httpHost, portVariable: 'PORT', hostVariable: 'HOST' }, () => app.listen({ port: httpPort, host: httpHost }));
  const { smtpListen } = config.email;
  if (smtpListen) {
    // smtp-server loads only where mail is received.
    const { startSmtpReceiver } = await import('./smtp/smtp-receiver.js');
    try {
      const address = { ...smtpListen, portVariable: 'LOOPDESK_SMTP_LISTEN', hostVariable: 'LOOPDESK_SMTP_LISTEN' };
      smtpReceiver = await listenOn('the SMTP receiver', address, () => startSmtpReceiver({
        inbound: services.inbound, ...smtpListen, maxBytes: INBOUND_MAIL_MAX_BYTES,
        onError: (error) => logger.warn({ err: error }, 'SMTP receiver: a mail could not be taken (the sender will retry)'),
      }));
    } catch (error) {
      // Nothing stays listening on a start that failed.
      await app.close();
      throw error;
    }
    logger.info({ port: smtpReceiver.port }, 'SMTP receiver listening');
  }
  services.webhookDispatcher.start();
  // Conversations left waiting by a process that stopped before its pass.
  void services.assignmentQueue.sweep(null);
  services.housekeeping.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { baseUrl: `http://${host}:${port}`, firstStart };
}
