// Housekeeping: what has outlived its use leaves the database, so that a server running for years
// holds what it needs and not everything it ever did (docs/events.md "Retention"). Each server
// process runs it hourly, a short while after it starts; with several processes on PostgreSQL
// they may overlap, which costs nothing but the work (a row deleted twice is deleted once). Rows
// go in batches with a turn of the event loop between them, so requests never wait long.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AuditLogRepository } from '../../db/repositories/audit/audit-log.repository.js';
import type { RetentionRepository } from '../../db/repositories/retention.repository.js';
import type { SignInFailureRepository } from '../../db/repositories/sign-in-failure.repository.js';
import type { Clock } from '../../lib/clock.js';
import { LOCKOUT_MEMORY_MS } from '../accounts/sign-in-lockout.js';
import { RATE_WINDOW_MS } from '../rate-limits/token-bucket.js';
import { SESSION_TTL_MS as WIDGET_SESSION_TTL_MS } from '../widget/widget-session.service.js';

const DAY_MS = 24 * 3600_000;
export const HOUSEKEEPING_INTERVAL_MS = 3600_000;
/** The first run waits up to this long after the start, so processes started together spread out. */
const FIRST_RUN_WITHIN_MS = 60_000;
/** Rows a statement: a few milliseconds of deleting at a time. */
export const HOUSEKEEPING_BATCH = 500;

/** How many rows of each kind one run deleted. */
export interface HousekeepingReport {
  webhook_deliveries: number;
  events: number;
  sessions: number;
  widget_sessions: number;
  invitations: number;
  /** Webhook secrets replaced by a rotation, forgotten once they stopped signing. */
  previous_secrets: number;
  /** Shared rate-limit budgets idle long enough to be full again. */
  rate_limit_buckets: number;
  /** Audit log entries older than LOOPDESK_AUDIT_RETENTION_DAYS. */
  audit_log: number;
}

export interface HousekeepingDeps {
  clock: Clock;
  retention: RetentionRepository;
  signInFailures: Pick<SignInFailureRepository, 'purgeBefore'>;
  auditEntries: Pick<AuditLogRepository, 'deleteBefore'>;
  /** Keeps the planner's statistics current (the dialect's refreshStatistics), after the deletions. */
  refreshStatistics: () => Promise<void>;
  /** LOOPDESK_EVENT_RETENTION_DAYS: how long events and finished webhook deliveries are kept; 0: forever. */
  eventRetentionDays: number;
  /** LOOPDESK_AUDIT_RETENTION_DAYS: how long audit log entries are kept; 0: forever. */
  auditRetentionDays: number;
  onError: (error: unknown) => void;
  /** Hears of every run that deleted something. */
  onReport?: (report: HousekeepingReport) => void;
  /** The first run comes at a random moment within this long after `start` (FIRST_RUN_WITHIN_MS). */
  firstRunWithinMs?: number;
}

export function createHousekeeping({
  clock, retention, signInFailures, auditEntries, refreshStatistics, eventRetentionDays, auditRetentionDays, onError, onReport, firstRunWithinMs = FIRST_RUN_WITHIN_MS,
}: HousekeepingDeps) {
  const iso = (ms: number) => new Date(ms).toISOString();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopping = false;

  /** Calls `remove` a batch at a time until a batch comes back short (or the server stops). */
  async function drain(remove: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const removed = await remove(HOUSEKEEPING_BATCH);
      total += removed;
      if (removed < HOUSEKEEPING_BATCH || stopping) return total;
      await nextTurn();
    }
  }

  async function runOnce(): Promise<HousekeepingReport> {
    const nowMs = Date.parse(clock.now());
    const now = iso(nowMs);
    const report: HousekeepingReport = { webhook_deliveries: 0, events: 0, sessions: 0, widget_sessions: 0, invitations: 0, previous_secrets: 0, rate_limit_buckets: 0, audit_log: 0 };
    if (eventRetentionDays > 0) {
      const cutoff = iso(nowMs - eventRetentionDays * DAY_MS);
      // Deliveries first: an event goes once no delivery needs it.
      report.webhook_deliveries = await drain((limit) => retention.deleteFinishedDeliveries(cutoff, limit));
      report.events = await drain((limit) => retention.deleteDeliveredEvents(cutoff, limit));
    }
    report.sessions = await drain((limit) => retention.deleteEndedSessions(now, limit));
    report.widget_sessions = await drain((limit) => retention.deleteUnusedWidgetSessions(iso(nowMs - WIDGET_SESSION_TTL_MS), limit));
    report.invitations = await drain((limit) => retention.deleteExpiredInvitations(now, limit));
    report.previous_secrets = await drain((limit) => retention.forgetExpiredSecrets(now, limit));
    report.rate_limit_buckets = await drain((limit) => retention.deleteIdleRateLimitBuckets(nowMs - RATE_WINDOW_MS, limit));
    if (auditRetentionDays > 0) {
      const cutoff = iso(nowMs - auditRetentionDays * DAY_MS);
      report.audit_log = await drain((limit) => auditEntries.deleteBefore(cutoff, limit));
    }
    await signInFailures.purgeBefore(iso(nowMs - LOCKOUT_MEMORY_MS));
    await refreshStatistics();
    if (Object.values(report).some((count) => count > 0)) onReport?.(report);
    return report;
  }

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      running = runOnce().catch(onError).finally(() => {
        running = null;
        if (!stopping) schedule(HOUSEKEEPING_INTERVAL_MS);
      });
    }, delayMs);
    timer.unref();
  }

  return {
    /** One run now: what the timer does each hour (tests and `start` call it). */
    runOnce,

    start(): void {
      if (timer || stopping) return;
      schedule(Math.floor(Math.random() * firstRunWithinMs));
    },

    /** No new run starts; a run under way stops after its current batch. */
    async stop(): Promise<void> {
      stopping = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

export type Housekeeping = ReturnType<typeof createHousekeeping>;
