// The webhook dispatcher, one per server process. Each cycle runs one transaction that (a) records
// the outcomes of the attempts finished since the last cycle, each while its lease holds; (b) fans
// events out: claims events not yet fanned out and creates one delivery per enabled, subscribed
// endpoint of the event's workspace; (c) claims due deliveries for the free attempt slots, pushing
// each one's next attempt ahead by a lease. The attempts start after the commit. One commit per
// cycle rather than one per attempt: on SQLite every commit is a WAL write that request handlers
// wait behind. On PostgreSQL the claims skip rows other processes hold (FOR UPDATE SKIP LOCKED),
// so every attempt is made by exactly one process; a process that dies mid-attempt, or before its
// outcome is written, hands the delivery back when its lease runs out, so nothing committed is
// lost (it may be delivered twice: at least once). The fan-out also creates the release
// announcement jobs of release.published events, and each cycle runs the due ones
// (src/events/announcer.ts), the due conversation jobs: summaries
// (src/events/conversation-job-runner.ts), and the due mail: replies (src/events/reply-mailer.ts)
// and members' notifications (src/events/notification-mailer.ts), and the SLA breaches due
// (src/events/sla-breach-watcher.ts).
import type { WebhookConfig } from '../config.js';
import type { Db } from '../db/database.js';
import type { Executor } from '../db/repositories/executor.js';
import type {
  AttemptRow, DeliveryOutcome, FanOutEventRow, LeasedOutcome, WebhookDeliveryRepository, WebhookDeliveryRow,
} from '../db/repositories/webhook-delivery.repository.js';
import type { SubscriptionRow, WebhookEndpointRepository } from '../db/repositories/webhook-endpoint.repository.js';
import type { Clock } from '../lib/clock.js';
import type { RequestPressure } from '../lib/request-pressure.js';
import { newId } from '../lib/ids.js';
import { isMemberEvent } from './event-types.js';
import { settledWithin } from '../lib/settle.js';
import type { Announcer } from './announcer.js';
import type { AutomationRunner } from './automation-runner.js';
import type { ConversationJobRunner } from './conversation-job-runner.js';
import type { ReplyMailer } from './reply-mailer.js';
import type { SlaBreachWatcher } from './sla-breach-watcher.js';
import { outcomeAfter } from './retry-schedule.js';
import { AttemptCancelled, signingSecrets, type AttemptResult, type WebhookSender } from './webhook-sender.js';

/** Events fanned out per transaction. */
export const FAN_OUT_BATCH = 200;
/** How much longer than the attempt timeout a claim's lease lasts: time to record the outcome. */
const LEASE_MARGIN_MS = 5_000;
/**
 * After a cycle that found work, the next one comes this soon, then twice as late after each
 * cycle that found none, up to the poll interval: events committed one after another are picked
 * up within milliseconds, while an idle dispatcher still polls at the poll interval.
 */
const QUICK_POLL_MS = 5;

const iso = (ms: number) => new Date(ms).toISOString();

/** An endpoint receives an event of its workspace recorded since it was created, when subscribed to its type (a member's own events never). */
function receives(endpoint: SubscriptionRow & { types: string[] }, event: FanOutEventRow): boolean {
  return endpoint.workspace_id === event.workspace_id && endpoint.created_at <= event.created_at && !isMemberEvent(event.type) &&
    (endpoint.types.includes('*') || endpoint.types.includes(event.type));
}

function deliveriesFor(events: FanOutEventRow[], endpoints: SubscriptionRow[], now: string): WebhookDeliveryRow[] {
  const subscribed = endpoints.map((endpoint) => ({ ...endpoint, types: JSON.parse(endpoint.events) as string[] }));
  return events.flatMap((event) =>
    subscribed.filter((endpoint) => receives(endpoint, event)).map((endpoint) => ({
      id: newId(), workspace_id: event.workspace_id, endpoint_id: endpoint.id, event_id: event.id, event_type: event.type,
      status: 'pending' as const, attempts: 0, last_status_code: null, last_error: null, next_attempt_at: now, created_at: now, updated_at: now,
    })),
  );
}

export interface DispatcherDeps {
  db: Db;
  webhookEndpoints: Pick<WebhookEndpointRepository, 'enabledIn'>;
  webhookDeliveries: WebhookDeliveryRepository;
  sender: WebhookSender;
  /** Release announcements: planned with the fan-out, run in each cycle. */
  announcer: Pick<Announcer, 'plan' | 'run' | 'stop'>;
  /** Automation rules: their jobs planned with the fan-out, run after it (docs/automation.md). */
  automation: Pick<AutomationRunner, 'plan' | 'run' | 'stop'>;
  /** Conversation jobs (summaries): asked for by writes, run in each cycle. */
  conversationJobRunner: Pick<ConversationJobRunner, 'run' | 'stop'>;
  /** Mail queued by writes (agents' replies, members' notifications), sent in each cycle. */
  mailers: readonly Pick<ReplyMailer, 'run' | 'stop'>[];
  /** SLA breaches (src/events/sla-breach-watcher.ts), recorded in each cycle. */
  slaBreaches: Pick<SlaBreachWatcher, 'run' | 'stop'>;
  clock: Clock;
  config: WebhookConfig;
  /** Reports a cycle that failed (the database unreachable, …); the next poll tries again. */
  onError: (error: unknown) => void;
  /** While requests saturate the event loop, the dispatcher yields to them; never, without one. */
  pressure?: Pick<RequestPressure, 'saturated'>;
  random?: () => number;
}

interface InFlight {
  cancel(): void;
  done: Promise<void>;
}

/** An attempt that has ended: its outcome, or null when it was cancelled (handed back, no attempt counted). */
interface Finished {
  id: string;
  lease: string;
  outcome: DeliveryOutcome | null;
}

/** What a cycle found: a full fan-out batch (more are waiting), some work, or nothing. */
type CycleResult = 'more' | 'worked' | 'idle';

export function createDispatcher(deps: DispatcherDeps) {
  const { db, webhookEndpoints, webhookDeliveries, sender, announcer, automation, conversationJobRunner, mailers, slaBreaches, clock, config, onError, random } = deps;
  const saturated = () => deps.pressure?.saturated() ?? false;
  const leaseMs = config.timeoutMs + LEASE_MARGIN_MS;
  const inFlight = new Map<string, InFlight>();
  /** Ended attempts whose outcome the next transaction writes. */
  let finished: Finished[] = [];
  let state: 'idle' | 'running' | 'stopping' | 'stopped' = 'idle';
  let timer: NodeJS.Timeout | null = null;
  let cycle: Promise<void> | null = null;
  let wakeRequested = false;
  /** Cycles in a row that found nothing (the next poll's delay doubles with each). */
  let idleCycles = Infinity;
  /** A fan-out created announcement jobs since the announcer last ran. */
  let announcementsPlanned = false;
  /** A fan-out created rule jobs since the rules last ran. */
  let rulesPlanned = false;
  let jobsRanAt = -Infinity;

  /** Fans out one batch of events in `tx`; how many there were. */
  async function fanOutIn(tx: Executor, limit = FAN_OUT_BATCH): Promise<number> {
    const events = await webhookDeliveries.claimEventsToFanOut(limit, tx);
    if (events.length === 0) return 0;
    const endpoints = await webhookEndpoints.enabledIn([...new Set(events.map((event) => event.workspace_id))], tx);
    const now = clock.now();
    await webhookDeliveries.insertMany(deliveriesFor(events, endpoints, now), tx);
    await webhookDeliveries.markFannedOut(events.map((event) => event.id), now, tx);
    if (await announcer.plan(events, tx)) announcementsPlanned = true;
    if (await automation.plan(events, tx)) rulesPlanned = true;
    return events.length;
  }

  /**
   * Writes the outcomes of ended attempts and hands the cancelled ones back, in `tx`: successes
   * one statement per claim and status code, failures (each with its own retry time) one by one.
   */
  async function writeFinished(ended: readonly Finished[], tx: Executor): Promise<void> {
    const successes = new Map<string, { ids: string[]; lease: string; statusCode: number }>();
    const failures: LeasedOutcome[] = [];
    const cancelled: Finished[] = [];
    for (const entry of ended) {
      const { outcome } = entry;
      if (outcome === null) cancelled.push(entry);
      else if (outcome.status !== 'succeeded') failures.push({ ...entry, outcome });
      else {
        const key = `${entry.lease} ${outcome.last_status_code}`;
        const group = successes.get(key) ?? { ids: [], lease: entry.lease, statusCode: outcome.last_status_code! };
        group.ids.push(entry.id);
        successes.set(key, group);
      }
    }
    const now = clock.now();
    for (const { ids, lease, statusCode } of successes.values()) await webhookDeliveries.recordSuccesses(ids, lease, statusCode, now, tx);
    if (failures.length > 0) await webhookDeliveries.recordOutcomes(failures, tx);
    if (cancelled.length > 0) await webhookDeliveries.handBack(cancelled, now, tx);
  }

  /**
   * Runs `work` in one transaction after writing the ended attempts' outcomes; if it fails, those
   * stay queued for the next transaction (their leases keep the deliveries from other claims).
   */
  async function withFinishedWritten<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    const ended = finished;
    finished = [];
    try {
      return await db.transaction().execute(async (tx) => {
        await writeFinished(ended, tx);
        return work(tx);
      });
    } catch (error) {
      finished = ended.concat(finished);
      throw error;
    }
  }

  /** Waits for an attempt's result and queues its outcome (or, cancelled, its hand-back) for the next transaction. */
  async function recordWhenDone(row: AttemptRow, result: Promise<AttemptResult>): Promise<void> {
    let outcome: DeliveryOutcome | null;
    try {
      outcome = outcomeAfter(row.attempts + 1, await result, Date.parse(clock.now()), config.retryScheduleMs, random);
    } catch (error) {
      if (!(error instanceof AttemptCancelled)) throw error;
      outcome = null;
    }
    // Pushed after the wait: a transaction may have swapped the queue meanwhile.
    finished.push({ id: row.id, lease: row.next_attempt_at, outcome });
  }

  function start(row: AttemptRow): void {
    const now = clock.now();
    const timestamp = Math.floor(Date.parse(now) / 1000);
    const { result, cancel } = sender.send({ url: row.url, secrets: signingSecrets(row, now), id: row.id, timestamp, body: row.payload });
    const done = recordWhenDone(row, result)
      .catch(onError)
      .finally(() => {
        inFlight.delete(row.id);
        // Half the slots free again: record and claim now rather than at the next poll, unless
        // requests saturate the loop (then deliveries wait for the poll: they lag, requests don't).
        if (inFlight.size <= config.concurrency / 2 && !saturated()) wake();
      });
    inFlight.set(row.id, { cancel, done });
  }

  /**
   * One cycle: the ended attempts' outcomes, a fan-out batch and the claim of due deliveries for
   * the free slots, in one transaction; then the claimed attempts start.
   */
  async function runCycle(): Promise<CycleResult> {
    const free = config.concurrency - inFlight.size;
    // Yielding to requests, a cycle also fans out no more events than it may attempt: creating
    // the deliveries is most of an event's database work, and the events wait in the outbox.
    const fanOutLimit = saturated() ? config.concurrency : FAN_OUT_BATCH;
    const { fannedOut, claimed } = await withFinishedWritten(async (tx) => {
      const events = await fanOutIn(tx, fanOutLimit);
      // Read after the fan-out, so the deliveries it just created are due.
      const nowMs = Date.parse(clock.now());
      return { fannedOut: events, claimed: free > 0 ? await webhookDeliveries.claimDue(iso(nowMs), iso(nowMs + leaseMs), free, tx) : [] };
    });
    for (const row of claimed) start(row);
    // Rules run in the background, right after the fan-out that planned them (and at each poll, for retries).
    if (rulesPlanned || performance.now() - jobsRanAt >= config.pollIntervalMs) {
      rulesPlanned = false;
      void automation.run();
    }
    // Announcement jobs come from the fan-out or fall due on the retry schedule, conversation
    // jobs a debounce after their message: a busy dispatcher's many cycles need not each look
    // for them (a claim transaction each).
    if (announcementsPlanned || performance.now() - jobsRanAt >= config.pollIntervalMs) {
      announcementsPlanned = false;
      jobsRanAt = performance.now();
      await announcer.run();
      await conversationJobRunner.run();
      for (const mailer of mailers) await mailer.run();
      await slaBreaches.run();
    }
    if (fannedOut === fanOutLimit) return 'more';
    return fannedOut > 0 || claimed.length > 0 ? 'worked' : 'idle';
  }

  /**
   * When the next cycle runs: at once while a backlog waits (or attempts asked for one), soon
   * after work, at the poll interval when idle. While requests saturate the loop, only at the
   * poll interval: fan-out and attempts then take a bounded share of the loop (one cycle of at
   * most `concurrency` attempts per poll) and deliveries lag until the load eases.
   */
  function scheduleNext(result: CycleResult): void {
    const hurry = result === 'more' || wakeRequested;
    wakeRequested = false;
    idleCycles = result === 'idle' ? idleCycles + 1 : 0;
    if (saturated()) timer = setTimeout(wake, config.pollIntervalMs);
    else if (hurry) setImmediate(wake);
    else timer = setTimeout(wake, Math.min(config.pollIntervalMs, QUICK_POLL_MS * 2 ** idleCycles));
  }

  function wake(): void {
    if (state !== 'running') return;
    if (cycle) {
      wakeRequested = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    cycle = runCycle()
      .catch((error): CycleResult => {
        onError(error);
        return 'idle';
      })
      .then((result) => {
        cycle = null;
        if (state === 'running') scheduleNext(result);
      });
  }

  /** Lets attempts in flight finish for up to `graceMs`, then cancels the rest, which hand their deliveries back. */
  async function settleAttempts(graceMs: number): Promise<void> {
    const flights = () => [...inFlight.values()].map((flight) => flight.done);
    if (await settledWithin(flights(), graceMs)) return;
    for (const flight of inFlight.values()) flight.cancel();
    await Promise.allSettled(flights());
  }

  return {
    /** One fan-out batch, outside the loop (tests, tools); how many events it fanned out. */
    fanOut: (): Promise<number> => db.transaction().execute((tx) => fanOutIn(tx)),

    start(): void {
      if (state !== 'idle') return;
      state = 'running';
      wake();
    },

    /**
     * Stops claiming, lets attempts in flight finish for up to `graceMs`, then cancels the rest
     * and hands their deliveries back (due now, no attempt counted) for another process or the
     * next start.
     */
    async stop(graceMs: number): Promise<void> {
      if (state !== 'running') {
        state = 'stopped';
        sender.close();
        await Promise.all([announcer.stop(0), automation.stop(), conversationJobRunner.stop(0), slaBreaches.stop(0), ...mailers.map((mailer) => mailer.stop(0))]);
        return;
      }
      state = 'stopping';
      if (timer) clearTimeout(timer);
      await cycle;
      await Promise.all([settleAttempts(graceMs), announcer.stop(graceMs), automation.stop(), conversationJobRunner.stop(graceMs), slaBreaches.stop(graceMs), ...mailers.map((mailer) => mailer.stop(graceMs))]);
      if (finished.length > 0) await withFinishedWritten(async () => {}).catch(onError);
      sender.close();
      state = 'stopped';
    },

    /** Attempts in flight now (for tests and diagnostics). */
    get inFlight(): number {
      return inFlight.size;
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
