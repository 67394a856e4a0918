// The only reader of process.env: everything else receives a validated, frozen Config.

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly logLevel: string;
  /** How long in-flight requests may take to finish after SIGTERM/SIGINT. */
  readonly shutdownGraceMs: number;
  /** Upper bound for one request, from first byte to response. */
  readonly requestTimeoutMs: number;
  /** Cap on simultaneously open connections; 0 means unlimited. */
  readonly maxConnections: number;
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || 'sqlite:./data/loopdesk.db';
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with sqlite:, postgres:// or postgresql://');
  }
  return Object.freeze({
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    logLevel: env.LOOPDESK_LOG_LEVEL || 'info',
    shutdownGraceMs: integer(env, 'LOOPDESK_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    requestTimeoutMs: integer(env, 'LOOPDESK_REQUEST_TIMEOUT_MS', 30_000, 0, 600_000),
    maxConnections: integer(env, 'LOOPDESK_MAX_CONNECTIONS', 1024, 0, 1_000_000),
  });
}
