// The only reader of process.env: everything else receives a validated, frozen Config.

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly database: DatabaseOptions;
  readonly logLevel: string;
  /** LOOPDESK_LOG_FORMAT: pino-pretty's lines on a terminal, JSON lines otherwise. */
  readonly logFormat: LogFormat;
  /** How long in-flight requests may take to finish after SIGTERM/SIGINT. */
  readonly shutdownGraceMs: number;
  /** Upper bound for one request, from first byte to response. */
  readonly requestTimeoutMs: number;
  /** Cap on simultaneously open connections; 0 means unlimited. */
  readonly maxConnections: number;
  /** LOOPDESK_RATE_LIMIT: requests per minute per API key; 0 turns rate limiting off. */
  readonly rateLimitPerMinute: number;
  /**
   * LOOPDESK_WIDGET_RATE_LIMIT: scales the widget API's per-IP limits (10 sessions, 30 writes and
   * 120 reads per minute and widget key); 0 turns them off.
   */
  readonly widgetRateLimitScale: number;
  /** LOOPDESK_PUBLIC_URL: the base URL clients reach the server at (behind a proxy); null: the origin each request names. */
  readonly publicUrl: string | null;
  /** LOOPDESK_DEMO=1: /widget/demo/{widget_key} for every product (else only for the first-start workspace's). */
  readonly widgetDemo: boolean;
  readonly dedup: DedupConfig;
  readonly webhooks: WebhookConfig;
  /** Release announcement emails (docs/events.md); null: LOOPDESK_SMTP_URL is not set, nothing is mailed. */
  readonly mail: MailConfig | null;
  /** Conversations by mail and their attachments (docs/email.md). */
  readonly email: EmailConfig;
  readonly streams: StreamConfig;
  /** LOOPDESK_EVENT_RETENTION_DAYS: how long events and finished webhook deliveries are kept (docs/events.md "Retention"); 0: forever. */
  readonly eventRetentionDays: number;
  /** LOOPDESK_AUDIT_RETENTION_DAYS: how long audit log entries are kept (docs/audit-log.md); 0: forever. */
  readonly auditRetentionDays: number;
  readonly summaries: SummaryConfig;
  /**
   * LOOPDESK_SEARCH_FOLD_MS: how long a conversation stays quiet before its new messages are folded
   * into its search document (docs/search.md, "Folding"); a later message restarts the wait.
   */
  readonly searchFoldMs: number;
  /** LOOPDESK_METRICS_TOKEN: the Bearer token GET /metrics is served to; null: no metrics (docs/operations.md). */
  readonly metricsToken: string | null;
  /** LOOPDESK_DEFAULT_CALENDAR: the name of the calendar reports count business hours in where no SLA's calendar applies (docs/reports.md); null: round the clock. */
  readonly defaultCalendar: string | null;
}

export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const DEDUP_PROVIDERS = ['auto', 'local', 'openai', 'lexical'] as const;

/** Duplicate detection for `POST /issues/maybe` (docs/dedup.md). */
export interface DedupConfig {
  readonly provider: (typeof DEDUP_PROVIDERS)[number];
  /** transformers.js model id for `local`. */
  readonly embeddingModel: string;
  /** Which ONNX weights of it: q8 (model_quantized.onnx), fp32, fp16, q4. */
  readonly embeddingDtype: string;
  /** Local model files (`<dir>/<model id>/...`); when set, nothing is downloaded. */
  readonly modelsDir: string | null;
  /** LOOPDESK_MODELS_URL: where models are downloaded from, a mirror of the Hugging Face hub; null: the hub. */
  readonly modelsUrl: string | null;
  /** LOOPDESK_MODEL_RETRY_MS: `auto`'s first wait before it tries loading the model again; doubles after each failure. */
  readonly modelRetryMs: number;
  /** LOOPDESK_DEDUP_THRESHOLD: replaces the provider's calibrated auto-link threshold (0..1). */
  readonly threshold: number | null;
  /** LOOPDESK_DEDUP_REVIEW_THRESHOLD: replaces where the review band (possible duplicates) starts (0..1). */
  readonly reviewThreshold: number | null;
  readonly openai: {
    readonly baseUrl: string;
    readonly apiKey: string | null;
    readonly embeddingModel: string;
    /** When set, a chat model judges the best candidates (local and openai providers). */
    readonly chatModel: string | null;
    readonly timeoutMs: number;
  };
}

/** Webhook delivery (docs/events.md). */
export interface WebhookConfig {
  /** LOOPDESK_WEBHOOKS_ALLOW_PRIVATE=1: URLs may reach loopback, private, link-local and other reserved addresses. */
  readonly allowPrivate: boolean;
  /** LOOPDESK_WEBHOOK_TIMEOUT_MS: how long an attempt may take, from DNS to the answer's status line. */
  readonly timeoutMs: number;
  /** LOOPDESK_WEBHOOK_RETRY_SCHEDULE_MS: the waits before each retry (comma-separated); after the last, a delivery fails. */
  readonly retryScheduleMs: readonly number[];
  /** LOOPDESK_WEBHOOK_POLL_MS: how often an idle dispatcher looks for new events and due deliveries. */
  readonly pollIntervalMs: number;
  /** LOOPDESK_WEBHOOK_CONCURRENCY: attempts in flight at once in one process. */
  readonly concurrency: number;
}

/** Sending release announcements by SMTP (docs/events.md). */
export interface MailConfig {
  /** LOOPDESK_SMTP_URL: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. */
  readonly smtpUrl: string;
  /** LOOPDESK_MAIL_FROM: the From address, `Name <address>` or a bare address. */
  readonly from: string;
  /** LOOPDESK_SMTP_TIMEOUT_MS: how long one email may take, from connecting to the server's answer to the message. */
  readonly timeoutMs: number;
}

/** Conversations by mail (docs/email.md). */
export interface EmailConfig {
  /** LOOPDESK_INBOUND_DOMAIN: products receive mail at `{inbound name}@` this domain; null: products show no inbound address and the SMTP receiver is off. */
  readonly inboundDomain: string | null;
  /**
   * LOOPDESK_SMTP_LISTEN (`host:port`): where the built-in SMTP receiver listens; null: it is off. With it
   * LOOPDESK_SMTP_MAX_CONNECTIONS (10): senders served at once, each holding up to 25 MiB; more are told to retry (421).
   */
  readonly smtpListen: { readonly host: string; readonly port: number; readonly maxConnections: number } | null;
  /** LOOPDESK_EMAIL_SENDER_LIMIT: new conversations one sender may start by mail per hour; 0: no limit. */
  readonly newConversationsPerSenderHour: number;
  readonly attachments: AttachmentStoreConfig;
  /**
   * LOOPDESK_MAIL_RETURN_PATH: the envelope sender of replies. `reply` (with an inbound domain): each
   * reply's own `bounces+{token}@` the inbound domain, where its delivery reports are taken; `from`:
   * LOOPDESK_MAIL_FROM's address, for a relay that sends only from its signed-in account (reports are then not taken).
   */
  readonly returnPath: 'reply' | 'from';
}

/** Where attachments are kept: a folder (LOOPDESK_ATTACHMENTS_DIR) or an S3-compatible bucket (LOOPDESK_S3_*). */
export type AttachmentStoreConfig =
  | { readonly kind: 'folder'; readonly dir: string }
  | {
    readonly kind: 's3';
    readonly bucket: string;
    /** null: AWS itself. */
    readonly endpoint: string | null;
    readonly region: string;
    /** null: the AWS SDK's own credential chain (environment, instance role, …). */
    readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
  };

export const EMAIL_DEFAULTS = Object.freeze({ newConversationsPerSenderHour: 10, attachmentsDir: 'data/attachments', returnPath: 'reply' as const });

/** Server-Sent Event streams (src/http/sse.ts, docs/events.md "Live streams"). */
export interface StreamConfig {
  /** LOOPDESK_SSE_HEARTBEAT_MS: a comment is sent this often, so proxies and clients see an idle stream is alive. */
  readonly heartbeatMs: number;
  /** LOOPDESK_SSE_MAX_MS: a stream ends after this long and its client reconnects with Last-Event-ID; 0: never. */
  readonly maxStreamMs: number;
}

/** Conversation summaries (docs/triage.md). */
export interface SummaryConfig {
  /** LOOPDESK_SUMMARY_DEBOUNCE_MS: how long after a contact's latest message its conversation is summarized (a later one restarts the wait). */
  readonly debounceMs: number;
  /** The chat model that writes summaries; null: LOOPDESK_LLM_BASE_URL and LOOPDESK_LLM_MODEL are not set, the extractive summarizer does. */
  readonly llm: LlmConfig | null;
}

/** An OpenAI-compatible chat-completions server (Ollama, vLLM, llama.cpp's server, LM Studio, OpenAI). */
export interface LlmConfig {
  /** LOOPDESK_LLM_BASE_URL, e.g. `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  readonly baseUrl: string;
  /** LOOPDESK_LLM_MODEL. */
  readonly model: string;
  /** LOOPDESK_LLM_API_KEY: sent as `Authorization: Bearer`; null: no header. */
  readonly apiKey: string | null;
  /** LOOPDESK_LLM_TIMEOUT_MS: how long one request may take. */
  readonly timeoutMs: number;
  /** LOOPDESK_LLM_RESPONSE_FORMAT: how the JSON schema of the answer is asked for (src/summaries/chat-model.ts); `json_schema` when not given. */
  readonly responseFormat?: LlmResponseFormat;
}

/** OpenAI's structured outputs, or JSON mode with a schema (llama-cpp-python's server knows only this one). */
export const LLM_RESPONSE_FORMATS = ['json_schema', 'json_object'] as const;
export type LlmResponseFormat = (typeof LLM_RESPONSE_FORMATS)[number];

export const SUMMARY_DEFAULTS: SummaryConfig = Object.freeze({ debounceMs: 2_000, llm: null });

export const SEARCH_FOLD_MS_DEFAULT = 60_000;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** docs/events.md: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h and 24 h. */
export const WEBHOOK_DEFAULTS: WebhookConfig = Object.freeze({
  allowPrivate: false,
  timeoutMs: 10_000,
  retryScheduleMs: Object.freeze([5_000, 30_000, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR]),
  pollIntervalMs: 250,
  concurrency: 32,
});

export const EVENT_RETENTION_DAYS_DEFAULT = 30;
export const AUDIT_RETENTION_DAYS_DEFAULT = 365;

export const STREAM_DEFAULTS: StreamConfig = Object.freeze({ heartbeatMs: 20_000, maxStreamMs: HOUR });

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

function httpUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const url = env[name] || null;
  if (url !== null && !/^https?:\/\/[^/]/.test(url)) throw new ConfigError(`${name} must be an http:// or https:// URL`);
  return url;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const value = env[name] || fallback;
  if (!(values as readonly string[]).includes(value)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${value}"`);
  return value as T;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name] ?? '';
  if (!['', '0', '1', 'false', 'true'].includes(raw)) throw new ConfigError(`${name} must be 1 or 0, got "${raw}"`);
  return raw === '1' || raw === 'true';
}

function retrySchedule(env: NodeJS.ProcessEnv): readonly number[] {
  const name = 'LOOPDESK_WEBHOOK_RETRY_SCHEDULE_MS';
  const raw = env[name];
  if (raw === undefined || raw === '') return WEBHOOK_DEFAULTS.retryScheduleMs;
  const waits = raw.split(',').map((item) => Number(item.trim()));
  if (waits.some((wait) => !Number.isInteger(wait) || wait < 1 || wait > 7 * 24 * HOUR)) {
    throw new ConfigError(`${name} must be comma-separated integers from 1 to ${7 * 24 * HOUR} (milliseconds), got "${raw}"`);
  }
  return Object.freeze(waits);
}

function webhookConfig(env: NodeJS.ProcessEnv): WebhookConfig {
  return Object.freeze({
    allowPrivate: flag(env, 'LOOPDESK_WEBHOOKS_ALLOW_PRIVATE'),
    timeoutMs: integer(env, 'LOOPDESK_WEBHOOK_TIMEOUT_MS', WEBHOOK_DEFAULTS.timeoutMs, 100, 60_000),
    retryScheduleMs: retrySchedule(env),
    // At most 1 s, so a first attempt starts well within the 5 s docs/events.md promises.
    pollIntervalMs: integer(env, 'LOOPDESK_WEBHOOK_POLL_MS', WEBHOOK_DEFAULTS.pollIntervalMs, 10, 1000),
    concurrency: integer(env, 'LOOPDESK_WEBHOOK_CONCURRENCY', WEBHOOK_DEFAULTS.concurrency, 1, 1000),
  });
}

// A bare address or `Display Name <address>`: something an SMTP server can take as the sender.
const MAIL_FROM = /^(?:[^<>]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

function mailConfig(env: NodeJS.ProcessEnv): MailConfig | null {
  const smtpUrl = env.LOOPDESK_SMTP_URL || null;
  const from = env.LOOPDESK_MAIL_FROM?.trim() || null;
  if (smtpUrl === null) {
    if (from !== null) throw new ConfigError('LOOPDESK_MAIL_FROM is set but LOOPDESK_SMTP_URL is not: set both to send announcement emails');
    return null;
  }
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new ConfigError('LOOPDESK_SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@host:587');
  }
  if (!['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
    throw new ConfigError('LOOPDESK_SMTP_URL must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:pass@host:587');
  }
  if (from === null) throw new ConfigError('LOOPDESK_MAIL_FROM is required with LOOPDESK_SMTP_URL (e.g. "Acme Support <support@acme.test>")');
  if (!MAIL_FROM.test(from)) throw new ConfigError(`LOOPDESK_MAIL_FROM must be an address or "Name <address>", got "${from}"`);
  return Object.freeze({ smtpUrl, from, timeoutMs: integer(env, 'LOOPDESK_SMTP_TIMEOUT_MS', 30_000, 100, 600_000) });
}

const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

function listenAddress(env: NodeJS.ProcessEnv, name: string): { host: string; port: number } | null {
  const raw = env[name];
  if (!raw) return null;
  const match = /^(.+):(\d{1,5})$/.exec(raw);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) throw new ConfigError(`${name} must be host:port, e.g. 0.0.0.0:25, got "${raw}"`);
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}

function attachmentStoreConfig(env: NodeJS.ProcessEnv): AttachmentStoreConfig {
  const bucket = env.LOOPDESK_S3_BUCKET || null;
  const accessKeyId = env.LOOPDESK_S3_ACCESS_KEY_ID || null;
  const secretAccessKey = env.LOOPDESK_S3_SECRET_ACCESS_KEY || null;
  if (bucket === null) {
    if (env.LOOPDESK_S3_ENDPOINT || accessKeyId || secretAccessKey) throw new ConfigError('LOOPDESK_S3_BUCKET is required with the other LOOPDESK_S3_* settings');
    return Object.freeze({ kind: 'folder', dir: env.LOOPDESK_ATTACHMENTS_DIR || EMAIL_DEFAULTS.attachmentsDir });
  }
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new ConfigError('LOOPDESK_S3_ACCESS_KEY_ID and LOOPDESK_S3_SECRET_ACCESS_KEY go together');
  }
  return Object.freeze({
    kind: 's3', bucket, endpoint: httpUrl(env, 'LOOPDESK_S3_ENDPOINT'), region: env.LOOPDESK_S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? Object.freeze({ accessKeyId, secretAccessKey }) : null,
  });
}

/** LOOPDESK_SMTP_MAX_CONNECTIONS unset: a support inbox rarely gets ten mails at the same moment. */
export const SMTP_MAX_CONNECTIONS_DEFAULT = 10;

function emailConfig(env: NodeJS.ProcessEnv): EmailConfig {
  const inboundDomain = env.LOOPDESK_INBOUND_DOMAIN?.trim().toLowerCase() || null;
  if (inboundDomain !== null && !DOMAIN.test(inboundDomain)) throw new ConfigError(`LOOPDESK_INBOUND_DOMAIN must be a domain name, got "${inboundDomain}"`);
  const smtpListen = listenAddress(env, 'LOOPDESK_SMTP_LISTEN');
  if (smtpListen && inboundDomain === null) throw new ConfigError('LOOPDESK_SMTP_LISTEN needs LOOPDESK_INBOUND_DOMAIN: the domain whose mail it receives');
  const maxConnections = integer(env, 'LOOPDESK_SMTP_MAX_CONNECTIONS', SMTP_MAX_CONNECTIONS_DEFAULT, 1, 1000);
  return Object.freeze({
    inboundDomain,
    smtpListen: smtpListen && Object.freeze({ ...smtpListen, maxConnections }),
    newConversationsPerSenderHour: integer(env, 'LOOPDESK_EMAIL_SENDER_LIMIT', EMAIL_DEFAULTS.newConversationsPerSenderHour, 0, 1_000_000),
    attachments: attachmentStoreConfig(env),
    returnPath: oneOf(env, 'LOOPDESK_MAIL_RETURN_PATH', ['reply', 'from'] as const, EMAIL_DEFAULTS.returnPath),
  });
}

const OPENAI_URL = 'https://api.openai.com/v1';

/** A similarity setting (above 0, at most 1), or null when unset. */
function similarity(env: NodeJS.ProcessEnv, name: string): number | null {
  const raw = env[name];
  if (!raw) return null;
  const value = Number(raw);
  if (!(value > 0 && value <= 1)) throw new ConfigError(`${name} must be a number above 0 and at most 1, got "${raw}"`);
  return value;
}

function dedupConfig(env: NodeJS.ProcessEnv): DedupConfig {
  const provider = oneOf(env, 'LOOPDESK_DEDUP_PROVIDER', DEDUP_PROVIDERS, 'auto');
  const dtype = env.LOOPDESK_EMBEDDING_DTYPE || 'q8';
  if (!['q8', 'fp32', 'fp16', 'q4'].includes(dtype)) throw new ConfigError(`LOOPDESK_EMBEDDING_DTYPE must be q8, fp32, fp16 or q4, got "${dtype}"`);
  const baseUrl = httpUrl(env, 'LOOPDESK_OPENAI_BASE_URL') ?? OPENAI_URL;
  const apiKey = env.LOOPDESK_OPENAI_API_KEY || null;
  const chatModel = env.LOOPDESK_OPENAI_CHAT_MODEL || null;
  if ((provider === 'openai' || chatModel) && baseUrl === OPENAI_URL && !apiKey) {
    throw new ConfigError('LOOPDESK_OPENAI_API_KEY is required to use api.openai.com (or set LOOPDESK_OPENAI_BASE_URL)');
  }
  return Object.freeze({
    provider,
    embeddingModel: env.LOOPDESK_EMBEDDING_MODEL || 'Xenova/multilingual-e5-small',
    embeddingDtype: dtype,
    modelsDir: env.LOOPDESK_MODELS_DIR || null,
    modelsUrl: httpUrl(env, 'LOOPDESK_MODELS_URL'),
    modelRetryMs: integer(env, 'LOOPDESK_MODEL_RETRY_MS', 30_000, 1, 3_600_000),
    threshold: similarity(env, 'LOOPDESK_DEDUP_THRESHOLD'),
    reviewThreshold: similarity(env, 'LOOPDESK_DEDUP_REVIEW_THRESHOLD'),
    openai: Object.freeze({
      baseUrl,
      apiKey,
      embeddingModel: env.LOOPDESK_OPENAI_EMBEDDING_MODEL || 'text-embedding-3-small',
      chatModel,
      timeoutMs: integer(env, 'LOOPDESK_OPENAI_TIMEOUT_MS', 15_000, 100, 600_000),
    }),
  });
}

function summaryConfig(env: NodeJS.ProcessEnv): SummaryConfig {
  const baseUrl = httpUrl(env, 'LOOPDESK_LLM_BASE_URL');
  const model = env.LOOPDESK_LLM_MODEL?.trim() || null;
  if ((baseUrl === null) !== (model === null)) {
    throw new ConfigError('LOOPDESK_LLM_BASE_URL and LOOPDESK_LLM_MODEL go together: set both to have a chat model write summaries, or neither');
  }
  return Object.freeze({
    // At most 8 s: a summary is promised within 10 s of the message.
    debounceMs: integer(env, 'LOOPDESK_SUMMARY_DEBOUNCE_MS', SUMMARY_DEFAULTS.debounceMs, 0, 8_000),
    llm: baseUrl === null || model === null ? null : Object.freeze({
      baseUrl, model, apiKey: env.LOOPDESK_LLM_API_KEY || null, timeoutMs: integer(env, 'LOOPDESK_LLM_TIMEOUT_MS', 20_000, 100, 600_000),
      responseFormat: oneOf(env, 'LOOPDESK_LLM_RESPONSE_FORMAT', LLM_RESPONSE_FORMATS, 'json_schema'),
    }),
  });
}

/** How the database handle is sized (createDatabase). */
export interface DatabaseOptions {
  /**
   * LOOPDESK_PG_POOL_SIZE: PostgreSQL connections per process; at least 2, because the start-up
   * migration lock holds one connection while the first-start bootstrap uses another.
   */
  readonly pgPoolSize: number;
  /** LOOPDESK_SQLITE_CACHE_MB: SQLite's page cache; lookups at 100k issues read from it instead of the file. */
  readonly sqliteCacheMb: number;
}

export const DATABASE_DEFAULTS: DatabaseOptions = Object.freeze({ pgPoolSize: 10, sqliteCacheMb: 64 });

function publicUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.LOOPDESK_PUBLIC_URL;
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`LOOPDESK_PUBLIC_URL must be an absolute http:// or https:// URL, got "${raw}"`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username) {
    throw new ConfigError(`LOOPDESK_PUBLIC_URL must be an http:// or https:// URL without query, fragment or credentials, got "${raw}"`);
  }
  return url.href.replace(/\/+$/, '');
}

function scale(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(value >= 0 && value <= max)) {
    throw new ConfigError(`${name} must be a number from 0 (off) to ${max}, got "${raw}"`);
  }
  return value;
}

/** A database URL as DATABASE_URL takes it; `name` names where it came from in the error. */
export function databaseUrl(name: string, url: string): string {
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(url)) throw new ConfigError(`${name} must start with sqlite:, postgres:// or postgresql://`);
  return url;
}

/** `terminal`: whether stdout is a TTY, which picks the default log format. */
/** The base of links the server hands out (the CLI's invitations, mail): LOOPDESK_PUBLIC_URL, else where the server listens (HOST and PORT). */
export const serverBase = ({ publicUrl, host, port }: Pick<Config, 'publicUrl' | 'host' | 'port'>): string =>
  publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

export function loadConfig(env: NodeJS.ProcessEnv = process.env, terminal = process.stdout.isTTY === true): Config {
  return Object.freeze({
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl: databaseUrl('DATABASE_URL', env.DATABASE_URL || 'sqlite:./data/loopdesk.db'),
    database: Object.freeze({
      pgPoolSize: integer(env, 'LOOPDESK_PG_POOL_SIZE', DATABASE_DEFAULTS.pgPoolSize, 2, 1000),
      sqliteCacheMb: integer(env, 'LOOPDESK_SQLITE_CACHE_MB', DATABASE_DEFAULTS.sqliteCacheMb, 1, 65_536),
    }),
    logLevel: env.LOOPDESK_LOG_LEVEL || 'info',
    logFormat: oneOf(env, 'LOOPDESK_LOG_FORMAT', LOG_FORMATS, terminal ? 'pretty' : 'json'),
    shutdownGraceMs: integer(env, 'LOOPDESK_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    requestTimeoutMs: integer(env, 'LOOPDESK_REQUEST_TIMEOUT_MS', 30_000, 0, 600_000),
    maxConnections: integer(env, 'LOOPDESK_MAX_CONNECTIONS', 1024, 0, 1_000_000),
    rateLimitPerMinute: integer(env, 'LOOPDESK_RATE_LIMIT', 6000, 0, 1_000_000_000),
    widgetRateLimitScale: scale(env, 'LOOPDESK_WIDGET_RATE_LIMIT', 1, 1_000_000),
    publicUrl: publicUrl(env),
    widgetDemo: flag(env, 'LOOPDESK_DEMO'),
    dedup: dedupConfig(env),
    webhooks: webhookConfig(env),
    mail: mailConfig(env),
    email: emailConfig(env),
    streams: Object.freeze({
      heartbeatMs: integer(env, 'LOOPDESK_SSE_HEARTBEAT_MS', STREAM_DEFAULTS.heartbeatMs, 10, 10 * MINUTE),
      maxStreamMs: integer(env, 'LOOPDESK_SSE_MAX_MS', STREAM_DEFAULTS.maxStreamMs, 0, 24 * HOUR),
    }),
    eventRetentionDays: integer(env, 'LOOPDESK_EVENT_RETENTION_DAYS', EVENT_RETENTION_DAYS_DEFAULT, 0, 36_500),
    auditRetentionDays: integer(env, 'LOOPDESK_AUDIT_RETENTION_DAYS', AUDIT_RETENTION_DAYS_DEFAULT, 0, 36_500),
    summaries: summaryConfig(env),
    searchFoldMs: integer(env, 'LOOPDESK_SEARCH_FOLD_MS', SEARCH_FOLD_MS_DEFAULT, 0, 24 * HOUR),
    metricsToken: env.LOOPDESK_METRICS_TOKEN || null,
    defaultCalendar: env.LOOPDESK_DEFAULT_CALENDAR?.trim() || null,
  });
}
