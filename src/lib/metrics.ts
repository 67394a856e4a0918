// The Prometheus metrics (prom-client) of one server process, served by GET /metrics when
// LOOPDESK_METRICS_TOKEN is set (src/http/plugins/metrics.ts). Names follow Prometheus's
// conventions (base units, `_seconds`, `_total`); labels take few values (route templates, never
// ids). Gauges about the database are read at each scrape, so every process reports the same totals.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolUsage } from '../db/dialect.js';
import type { OperationsRepository, StatusCount } from '../db/repositories/operations.repository.js';
import type { AnnouncementJobTable, WebhookDeliveryTable } from '../db/schema.js';

/** From 5 ms to 10 s: API requests, a duplicate check, a summary. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A model's summary takes seconds. */
const SUMMARY_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/**
 * Every status a delivery gauge reports, 0 until a delivery has it: an alert on
 * `{status="failed"}` then compares a number from the first scrape on, instead of seeing no series.
 */
const everyStatus = <S extends string>(statuses: Record<S, 0>): S[] => Object.keys(statuses) as S[];
const WEBHOOK_STATUSES = everyStatus<WebhookDeliveryTable['status']>({ pending: 0, succeeded: 0, failed: 0 });
const MAIL_STATUSES = everyStatus<AnnouncementJobTable['status']>({ pending: 0, done: 0, failed: 0 });

export interface MetricSources {
  operations: Pick<OperationsRepository, 'outboxBacklog' | 'webhookDeliveriesByStatus' | 'mailByStatus'>;
  /** Open Server-Sent Event streams of this process. */
  eventStreams(): number;
  /** HTTP requests this process received and has not finished answering. */
  requestsInFlight(): number;
  /** null where there is no pool (SQLite): the pool families are then not served at all. */
  poolUsage(): PoolUsage | null;
  /** ISO 8601, as the clock of the services tells it. */
  now(): string;
}

/** The families other parts observe; created by the composition root whether or not metrics are served. */
export function createMetrics() {
  const registry = new Registry();
  return {
    registry,
    dedupSeconds: new Histogram({
      name: 'loopdesk_dedup_duration_seconds',
      help: 'Time to decide whether a reported issue duplicates an existing one (POST /issues/maybe), model included',
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    /** Observed by each summary run that committed (src/domain/conversations/conversation-summary.service.ts). */
    summarySeconds: new Histogram({
      name: 'loopdesk_summary_duration_seconds',
      help: 'Time from a contact\'s latest message to its conversation\'s summary (the debounce included), by writer (extractive, or chat:<model>)',
      labelNames: ['writer'],
      buckets: SUMMARY_BUCKETS,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** A gauge whose value is read from `read` at each scrape. */
function scrapedGauge(registry: Registry, name: string, help: string, labelNames: string[], read: (gauge: Gauge) => Promise<void> | void): void {
  new Gauge({
    name, help, labelNames, registers: [registry],
    async collect() {
      this.reset();
      await read(this);
    },
  });
}

/**
 * Adds what only a served /metrics needs: the process's default metrics, the gauges read from the
 * database and the process at each scrape, and the request families. Returns the request observer.
 */
export function serveMetrics({ registry }: Metrics, sources: MetricSources): (method: string, route: string, status: number, seconds: number) => void {
  collectDefaultMetrics({ register: registry });
  const { operations } = sources;
  let backlogAge = 0;
  scrapedGauge(registry, 'loopdesk_outbox_backlog_events', 'Events recorded but not yet fanned out to webhooks', [], async (gauge) => {
    const { count, oldestCreatedAt } = await operations.outboxBacklog();
    gauge.set(count);
    backlogAge = oldestCreatedAt === null ? 0 : Math.max(0, (Date.parse(sources.now()) - Date.parse(oldestCreatedAt)) / 1000);
  });
  // Read after the backlog gauge, which sets it in the same scrape.
  scrapedGauge(registry, 'loopdesk_outbox_oldest_age_seconds', 'Age of the oldest event not yet fanned out; 0 when none waits', [], (gauge) => gauge.set(backlogAge));
  const byStatus = (statuses: readonly string[], counted: () => Promise<StatusCount[]>) => async (gauge: Gauge) => {
    for (const status of statuses) gauge.set({ status }, 0);
    for (const { status, count } of await counted()) gauge.set({ status }, count);
  };
  scrapedGauge(registry, 'loopdesk_webhook_deliveries', 'Webhook deliveries kept, by status (pending, succeeded, failed)', ['status'],
    byStatus(WEBHOOK_STATUSES, () => operations.webhookDeliveriesByStatus()));
  scrapedGauge(registry, 'loopdesk_mail_deliveries', 'Announcement emails kept, by status (pending, done, failed)', ['status'],
    byStatus(MAIL_STATUSES, () => operations.mailByStatus()));
  scrapedGauge(registry, 'loopdesk_event_stream_connections', 'Open Server-Sent Event streams of this process', [], (gauge) => gauge.set(sources.eventStreams()));
  scrapedGauge(registry, 'loopdesk_http_requests_in_flight', 'HTTP requests received and not yet answered (event streams included), this scrape included', [], (gauge) => gauge.set(sources.requestsInFlight()));
  // Only where there is a pool: an unlabelled gauge would otherwise read 0 on SQLite, as if it had one.
  if (sources.poolUsage()) {
    const usage = () => sources.poolUsage()!;
    scrapedGauge(registry, 'loopdesk_db_pool_connections', 'Database connections of this process\'s pool, by state (idle, busy)', ['state'], (gauge) => {
      const { open, idle } = usage();
      gauge.set({ state: 'idle' }, idle);
      gauge.set({ state: 'busy' }, open - idle);
    });
    scrapedGauge(registry, 'loopdesk_db_pool_waiting_queries', 'Queries waiting for a database connection', [], (gauge) => gauge.set(usage().waiting));
  }

  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'loopdesk_http_requests_total', help: 'HTTP requests answered, by method, route template and status', labelNames, registers: [registry] });
  const durations = new Histogram({
    name: 'loopdesk_http_request_duration_seconds', help: 'Time to answer an HTTP request, by method, route template and status',
    labelNames, buckets: LATENCY_BUCKETS, registers: [registry],
  });
  // The labelled children, kept: looking a child up by its labels costs more than observing it.
  const children = new Map<string, { requests: Counter.Internal; durations: Histogram.Internal<(typeof labelNames)[number]> }>();
  return (method, route, status, seconds) => {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels = { method, route, status: String(status) };
      child = { requests: requests.labels(labels), durations: durations.labels(labels) };
      children.set(key, child);
    }
    child.requests.inc();
    child.durations.observe(seconds);
  };
}
