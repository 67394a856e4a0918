// Runs automation rules from the recorded events (docs/automation.md, "How rules run"). When the
// dispatcher fans an event out (`plan`, in the transaction that claims it: once per event, on any
// number of processes) and active rules of its workspace listen to its type, one job is created
// with those rules' ids in order. Each cycle claims due jobs with a lease and runs them oldest
// first: a rule's conditions are tested on the conversation as read (no transaction for a rule that
// does not hold: most do not), and a rule that holds runs in a transaction of its own that first
// advances the job past it (while the lease holds: the row stays locked until the rule's effects
// commit with it) and tests them again under the conversation's lock, so a rule runs at most once
// per event, and a process that dies mid-job leaves the rest to whoever claims it next.
// A rule's changes carry `actor: { type: "rule", id }` and are never planned: no loops.
import type { Db } from '../db/database.js';
import type { AutomationJobRepository, AutomationJobRow, ClaimedAutomationJob } from '../db/repositories/automation/automation-job.repository.js';
import type { AutomationRuleRepository, ListeningRule } from '../db/repositories/automation/automation-rule.repository.js';
import type { ConversationRepository, ConversationWithContactRow } from '../db/repositories/conversation.repository.js';
import type { EventRepository } from '../db/repositories/event.repository.js';
import type { Executor } from '../db/repositories/executor.js';
import type { MessageRepository } from '../db/repositories/message.repository.js';
import type { FanOutEventRow } from '../db/repositories/webhook-delivery.repository.js';
import type { ActionRunner } from '../domain/automation/actions.js';
import { assignsInTurn, RULE_EVENTS, type Action, type Condition } from '../domain/automation/automation-vocabulary.js';
import type { Assignment } from '../domain/assignment/assignment.js';
import { conditionsHold, type ConditionSubject } from '../domain/automation/conditions.js';
import type { RegexRunner } from '../domain/automation/regex-safety.js';
import type { ConversationWrites } from '../domain/conversations/conversation.writes.js';
import { inTransaction } from '../domain/shared/unit-of-work.js';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { parseTags } from '../domain/tags/tags.js';
import { JOB_RETRY_SCHEDULE_MS } from './conversation-job-runner.js';
import type { EventPayload } from './event-types.js';
import { retryOutcome } from './retry-schedule.js';

/** Jobs claimed at once; run one after the other, oldest first, so one process keeps the events' order. */
const CLAIM_BATCH = 20;
/** A job's lease: room for every rule of a long list, each with its regex time limits. */
const JOB_LEASE_MS = 120_000;

const iso = (ms: number) => new Date(ms).toISOString();
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);
const isRuleEvent = (type: string) => (RULE_EVENTS as readonly string[]).includes(type);

type Data = Record<string, any>;

/** The conversation an event is about: `data` itself, or `data.conversation_id` (a message), or `data.conversation` (a breach). */
const conversationIdOf = (type: string, data: Data): string | undefined =>
  type === 'message.created' ? data.conversation_id : type === 'conversation.sla_breached' ? data.conversation?.id : data.id;

/** The contact's message an event carries: a contact's message, or a new conversation's first one. */
function contactMessageOf(type: string, data: Data): string | null {
  const message = type === 'message.created' ? data : type === 'conversation.created' ? data.messages?.[0] : undefined;
  return message?.sender_type === 'contact' && typeof message.body === 'string' ? message.body : null;
}

export interface AutomationRunnerDeps {
  db: Db;
  rules: Pick<AutomationRuleRepository, 'listening' | 'byIds' | 'findById' | 'recordRun'>;
  jobs: AutomationJobRepository;
  events: Pick<EventRepository, 'findMany'>;
  conversations: Pick<ConversationRepository, 'findById'>;
  messages: Pick<MessageRepository, 'lastFromContact'>;
  writes: Pick<ConversationWrites, 'lock'>;
  actions: ActionRunner;
  assignment: Pick<Assignment, 'holdFor'>;
  regex: Pick<RegexRunner, 'match' | 'close'>;
  clock: Clock;
  onError: (error: unknown) => void;
  random?: () => number;
}

type RuleOutcome = 'ran' | 'skipped' | 'lease_lost';

export function createAutomationRunner(deps: AutomationRunnerDeps) {
  const { db, rules, jobs, events, conversations, messages, writes, actions, assignment, regex, clock, onError, random } = deps;
  let draining: Promise<void> | null = null;
  let again = false;
  let stopping = false;

  /** The event's jobs: rules listening, in order, unless a rule made the change or a message is not the contact's. */
  function jobsOf(rows: readonly FanOutEventRow[], payloads: Map<string, EventPayload>, listening: Map<string, string[]>, now: string): AutomationJobRow[] {
    return rows.flatMap((event) => {
      const ruleIds = listening.get(`${event.workspace_id} ${event.type}`);
      const payload = payloads.get(event.id);
      if (!ruleIds || !payload || payload.actor?.type === 'rule') return [];
      if (event.type === 'message.created' && payload.data.sender_type !== 'contact') return [];
      const conversationId = conversationIdOf(event.type, payload.data);
      if (typeof conversationId !== 'string') return [];
      return [{
        id: event.id, workspace_id: event.workspace_id, conversation_id: conversationId, kind: 'rules', event_type: event.type,
        rule_ids: JSON.stringify(ruleIds), rules_done: 0, status: 'pending', attempts: 0, last_error: null, next_attempt_at: now, created_at: now, updated_at: now,
      } satisfies AutomationJobRow];
    });
  }

  /** The contact's message the job's event carries, read once per job. */
  async function carriedMessageOf(job: ClaimedAutomationJob): Promise<string | null> {
    const [event] = await events.findMany(job.workspace_id, [job.id]);
    return event ? contactMessageOf(job.event_type, (JSON.parse(event.payload) as EventPayload).data) : null;
  }

  /** What the conditions read, as the conversation is now (earlier rules' changes included). */
  async function subjectOf(conversation: ConversationWithContactRow, job: ClaimedAutomationJob, carried: string | null, tx: Executor): Promise<ConditionSubject> {
    const body = carried ?? (await messages.lastFromContact(job.workspace_id, conversation.id, clock.now(), tx))?.body ?? null;
    return {
      product_id: conversation.product_id, type: conversation.type, source: conversation.source, status: conversation.status,
      priority: conversation.priority, tags: parseTags(conversation.tags), assignee_id: conversation.assignee_id, title: conversation.title,
      'contact.email': conversation.contact_email, 'message.body': body, ai_summary: conversation.ai_summary,
    };
  }

  /** The conversation's subject outside any transaction, for the look before a rule's own; null when it is gone. */
  async function subjectNow(job: ClaimedAutomationJob, carried: string | null): Promise<ConditionSubject | null> {
    const conversation = await conversations.findById(job.workspace_id, job.conversation_id);
    return conversation ? subjectOf(conversation, job, carried, db) : null;
  }

  /**
   * Rule number `index` of the job, whose conditions held a moment ago, in its own transaction
   * that advances the job from `done` past it and tests the conditions again under the
   * conversation's lock; its events name the rule as their actor.
   */
  async function runRule(job: ClaimedAutomationJob, ruleId: string, carried: string | null, done: number, index: number): Promise<RuleOutcome> {
    const body = async (work: Parameters<Parameters<typeof inTransaction>[1]>[0]): Promise<RuleOutcome> => {
      if (!(await jobs.advance(job, done, index + 1, clock.now(), work.tx))) return 'lease_lost';
      const rule = await rules.findById(job.workspace_id, ruleId, work.tx);
      if (!rule || rule.active !== 1) return 'skipped';
      const ruleActions = JSON.parse(rule.actions) as Action[];
      const unlocked = await conversations.findById(job.workspace_id, job.conversation_id, work.tx);
      if (!unlocked) return 'skipped';
      await assignment.holdFor(work, unlocked.product_id, assignsInTurn(ruleActions));
      const at = await writes.lock(work, job.conversation_id);
      const conversation = await conversations.findById(job.workspace_id, job.conversation_id, work.tx);
      if (!conversation) return 'skipped';
      const conditions = JSON.parse(rule.conditions) as Condition[];
      if (!(await conditionsHold(conditions, await subjectOf(conversation, job, carried, work.tx), regex))) return 'skipped';
      const performer = { workspaceId: job.workspace_id, id: rule.id, name: rule.name, memberId: null };
      await actions.run(work, conversation, ruleActions, performer);
      await rules.recordRun(job.workspace_id, rule.id, at, work.tx);
      return 'ran';
    };
    try {
      return await inTransaction(db, body, { actor: { type: 'rule', id: ruleId } });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Its actions no longer fit (a member or saved reply deleted since): this run is skipped, the next rules go on.
      onError(new Error(`automation rule ${ruleId} skipped on event ${job.id}: ${error.message}`));
      const advanced = await inTransaction(db, (work) => jobs.advance(job, done, index + 1, clock.now(), work.tx));
      return advanced ? 'skipped' : 'lease_lost';
    }
  }

  /**
   * The job's rules in order. Their conditions are first tested on the conversation as read
   * outside a transaction (once, and again after each rule that acted): a rule that does not hold
   * costs no transaction, and the next rule that does advances the job past it. A process that
   * stops between them leaves those rules to be tested again by the next claim, which is harmless:
   * they changed nothing.
   */
  async function runJob(job: ClaimedAutomationJob): Promise<void> {
    try {
      const ruleIds = (JSON.parse(job.rule_ids) as string[]).slice(job.rules_done);
      const rows = new Map((await rules.byIds(job.workspace_id, ruleIds)).map((row) => [row.id, row]));
      const carried = await carriedMessageOf(job);
      let subject = await subjectNow(job, carried);
      let done = job.rules_done;
      for (const [offset, ruleId] of ruleIds.entries()) {
        const row = rows.get(ruleId);
        if (!subject || !row || row.active !== 1) continue;
        if (!(await conditionsHold(JSON.parse(row.conditions) as Condition[], subject, regex))) continue;
        const index = job.rules_done + offset;
        const outcome = await runRule(job, ruleId, carried, done, index);
        if (outcome === 'lease_lost') return;
        done = index + 1;
        if (outcome === 'ran') subject = await subjectNow(job, carried);
      }
      await jobs.finish(job);
    } catch (error) {
      const attempts = job.attempts + 1;
      const giveUp = attempts > JOB_RETRY_SCHEDULE_MS.length;
      await jobs.recordFailure(job, retryOutcome(attempts, errorText(error), giveUp, Date.parse(clock.now()), JOB_RETRY_SCHEDULE_MS, random));
    }
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      for (;;) {
        if (stopping) return;
        const nowMs = Date.parse(clock.now());
        const claimed = await db.transaction().execute((tx) => jobs.claimDue(iso(nowMs), iso(nowMs + JOB_LEASE_MS), CLAIM_BATCH, tx));
        for (const job of claimed) if (!stopping) await runJob(job);
        if (claimed.length < CLAIM_BATCH) break;
      }
    } while (again);
  }

  return {
    /**
     * In the transaction that fans `rows` out: a job for each event that active rules listen to.
     * Whether it planned any (the dispatcher then runs the jobs without waiting for its poll).
     */
    async plan(rows: readonly FanOutEventRow[], tx: Executor): Promise<boolean> {
      const triggers = rows.filter((event) => isRuleEvent(event.type));
      if (triggers.length === 0) return false;
      const found: ListeningRule[] = await rules.listening([...new Set(triggers.map((event) => event.workspace_id))], [...new Set(triggers.map((event) => event.type))], tx);
      if (found.length === 0) return false;
      const listening = new Map<string, string[]>();
      for (const rule of found) listening.set(`${rule.workspace_id} ${rule.event}`, [...(listening.get(`${rule.workspace_id} ${rule.event}`) ?? []), rule.id]);
      const wanted = triggers.filter((event) => listening.has(`${event.workspace_id} ${event.type}`));
      const payloads = new Map<string, EventPayload>();
      for (const workspaceId of new Set(wanted.map((event) => event.workspace_id))) {
        const ids = wanted.filter((event) => event.workspace_id === workspaceId).map((event) => event.id);
        for (const row of await events.findMany(workspaceId, ids, tx)) payloads.set(row.id, JSON.parse(row.payload) as EventPayload);
      }
      const planned = jobsOf(wanted, payloads, listening, clock.now());
      await jobs.insertMany(planned, tx);
      return planned.length > 0;
    },

    /** Runs the due jobs until none is left; a call while they run asks for one more pass and returns with it. */
    run(): Promise<void> {
      if (draining) {
        again = true;
        return draining;
      }
      draining = drain()
        .catch(onError)
        .finally(() => {
          draining = null;
        });
      return draining;
    },

    /** Stops claiming; the job running finishes its current rule, the rest of it falls due again when its lease runs out. */
    async stop(): Promise<void> {
      stopping = true;
      await draining;
      await regex.close();
    },
  };
}

export type AutomationRunner = ReturnType<typeof createAutomationRunner>;
