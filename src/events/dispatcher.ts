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
// (src/events/announcer.ts).
import type { WebhookConfig } from '../config.js';
import type { Db } from '../db/database.js';
import type { Executor } from '../db/repositories/executor.js';
import type {
  AttemptRow, DeliveryOutcome, FanOutEventRow, LeasedOutcome, WebhookDeliveryRepository, WebhookDeliveryRow,
} from '../db/repositories/webhook-delivery.repository.js';
import type { SubscriptionRow, WebhookEndpointRepository } from '../db/repositories/webhook-endpoint.repository.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { Announcer } from './announcer.js';
import { AttemptCancelled, type AttemptResult, type WebhookSender } from './webhook-sender.js';

/** Events fanned out per transaction. */
export const FAN_OUT_BATCH = 200;
/** How much longer than the attempt timeout a claim's lease lasts: time to record the outcome. */
const LEASE_MARGIN_MS = 5_000;
/** Retries wait up to 10 % longer than the schedule says, so receivers are not hit in lockstep. */
const JITTER = 0.1;

const iso = (ms: number) => new Date(ms).toISOString();

/** A retry's wait with its jitter: up to 10 % longer than the schedule says. */
export const jittered = (waitMs: number, random: () => number = Math.random): number => Math.round(waitMs * (1 + JITTER * random()));

/**
 * A delivery's state after attempt number `attempts`: succeeded; pending again after the
 * schedule's wait for that attempt (plus jitter); or failed once the schedule is used up.
 */
export function outcomeAfter(
  attempts: number, result: AttemptResult, nowMs: number, scheduleMs: readonly number[], random: () => number = Math.random,
): DeliveryOutcome {
  const recorded = { attempts, last_status_code: result.statusCode, last_error: result.error, updated_at: iso(nowMs) };
  if (result.ok) return { ...recorded, status: 'succeeded', next_attempt_at: null };
  const wait = scheduleMs[attempts - 1];
  if (wait === undefined) return { ...recorded, status: 'failed', next_attempt_at: null };
  return { ...recorded, status: 'pending', next_attempt_at: iso(nowMs + jittered(wait, random)) };
}

/** An endpoint receives an event of its workspace recorded since it was created, when subscribed to its type. */
function receives(endpoint: SubscriptionRow & { types: string[] }, event: FanOutEventRow): boolean {
  return endpoint.workspace_id === event.workspace_id && endpoint.created_at <= event.created_at &&
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
  clock: Clock;
  config: WebhookConfig;
  /** Reports a cycle that failed (the database unreachable, …); the next poll tries again. */
  onError: (error: unknown) => void;
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

export function createDispatcher({ db, webhookEndpoints, webhookDeliveries, sender, announcer, clock, config, onError, random }: DispatcherDeps) {
  const leaseMs = config.timeoutMs + LEASE_MARGIN_MS;
  const inFlight = new Map<string, InFlight>();
  /** Ended attempts whose outcome the next transaction writes. */
  let finished: Finished[] = [];
  let state: 'idle' | 'running' | 'stopping' | 'stopped' = 'idle';
  let timer: NodeJS.Timeout | null = null;
  let cycle: Promise<void> | null = null;
  let wakeRequested = false;

  /** Fans out one batch of events in `tx`; how many there were. */
  async function fanOutIn(tx: Executor): Promise<number> {
    const events = await webhookDeliveries.claimEventsToFanOut(FAN_OUT_BATCH, tx);
    if (events.length === 0) return 0;
    const endpoints = await webhookEndpoints.enabledIn([...new Set(events.map((event) => event.workspace_id))], tx);
    const now = clock.now();
    await webhookDeliveries.insertMany(deliveriesFor(events, endpoints, now), tx);
    await webhookDeliveries.markFannedOut(events.map((event) => event.id), now, tx);
    await announcer.plan(events, tx);
    return events.length;
  }

  /** Writes the outcomes of ended attempts and hands the cancelled ones back, in `tx`. */
  async function writeFinished(ended: readonly Finished[], tx: Executor): Promise<void> {
    const outcomes = ended.filter((entry): entry is LeasedOutcome => entry.outcome !== null);
    const cancelled = ended.filter((entry) => entry.outcome === null);
    if (outcomes.length > 0) await webhookDeliveries.recordOutcomes(outcomes, tx);
    if (cancelled.length > 0) await webhookDeliveries.handBack(cancelled, clock.now(), tx);
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
    const timestamp = Math.floor(Date.parse(clock.now()) / 1000);
    const { result, cancel } = sender.send({ url: row.url, secret: row.secret, id: row.id, timestamp, body: row.payload });
    const done = recordWhenDone(row, result)
      .catch(onError)
      .finally(() => {
        inFlight.delete(row.id);
        // Half the slots free again: record and claim now rather than at the next poll.
        if (inFlight.size <= config.concurrency / 2) wake();
      });
    inFlight.set(row.id, { cancel, done });
  }

  /**
   * One cycle: the ended attempts' outcomes, a fan-out batch and the claim of due deliveries for
   * the free slots, in one transaction; then the claimed attempts start. Whether more events are
   * probably waiting to be fanned out.
   */
  async function runCycle(): Promise<boolean> {
    const free = config.concurrency - inFlight.size;
    const { fannedOut, claimed } = await withFinishedWritten(async (tx) => {
      const events = await fanOutIn(tx);
      // Read after the fan-out, so the deliveries it just created are due.
      const nowMs = Date.parse(clock.now());
      return { fannedOut: events, claimed: free > 0 ? await webhookDeliveries.claimDue(iso(nowMs), iso(nowMs + leaseMs), free, tx) : [] };
    });
    for (const row of claimed) start(row);
    await announcer.run();
    return fannedOut === FAN_OUT_BATCH;
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
      .catch((error) => {
        onError(error);
        return false;
      })
      .then((busy) => {
        cycle = null;
        if (state !== 'running') return;
        if (busy || wakeRequested) {
          wakeRequested = false;
          setImmediate(wake);
        } else {
          timer = setTimeout(wake, config.pollIntervalMs);
        }
      });
  }

  /** Lets attempts in flight finish for up to `graceMs`, then cancels the rest, which hand their deliveries back. */
  async function settleAttempts(graceMs: number): Promise<void> {
    const settled = () => Promise.allSettled([...inFlight.values()].map((flight) => flight.done));
    let graceTimer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'late'>((resolve) => {
      graceTimer = setTimeout(() => resolve('late'), graceMs);
    });
    if ((await Promise.race([settled(), graceOver])) === 'late') {
      for (const flight of inFlight.values()) flight.cancel();
      await settled();
    }
    clearTimeout(graceTimer);
  }

  return {
    /** One fan-out batch, outside the loop (tests, tools); how many events it fanned out. */
    fanOut: (): Promise<number> => db.transaction().execute(fanOutIn),

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
        await announcer.stop(0);
        return;
      }
      state = 'stopping';
      if (timer) clearTimeout(timer);
      await cycle;
      await Promise.all([settleAttempts(graceMs), announcer.stop(graceMs)]);
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
