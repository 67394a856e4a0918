// config → database → app → listen, and the graceful shutdown on SIGTERM/SIGINT.
import pino from 'pino';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { createDatabase } from './db/database.js';
import { embeddingRepository } from './db/repositories/embedding.repository.js';
import { createDuplicateDetector } from './dedup/create-detector.js';
import type { IssuedKey } from './domain/admin.service.js';
import { createServices } from './services.js';

function printFirstKey(key: IssuedKey, baseUrl: string): void {
  process.stdout.write(
    [
      '',
      'Loopdesk created workspace "Default" with an owner and this API key (shown only once):',
      '',
      `    ${key.key}`,
      '',
      'Try it:',
      '',
      `    curl -H "Authorization: Bearer ${key.key}" ${baseUrl}/api/v1/me`,
      '',
      '',
    ].join('\n'),
  );
}

export async function startServer(config: Config): Promise<void> {
  const database = createDatabase(config.databaseUrl, config.database);
  const logger = pino({ level: config.logLevel });
  const detector = await createDuplicateDetector(config.dedup, { store: embeddingRepository(database.db), logger });
  const services = createServices(database, {
    detector,
    onBackgroundError: (error) => logger.warn({ err: error }, 'background write failed'),
  });
  let firstKey = null as IssuedKey | null;
  await database.migrate(async () => {
    firstKey = await services.admin.bootstrapIfEmpty();
  });

  const app = await buildApp({
    database, services, loggerInstance: logger, requestTimeoutMs: config.requestTimeoutMs,
    rateLimitPerMinute: config.rateLimitPerMinute, publicUrl: config.publicUrl,
  });
  app.server.maxConnections = config.maxConnections || Infinity;

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
      await app.close();
      await detector.close();
      await database.close();
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

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  if (firstKey) printFirstKey(firstKey, `http://${host}:${port}`);
}
