// Runs automation rules from the recorded events (docs/automation.md, "How rules run"). When the
// dispatcher fans an event out (`plan`, in the transaction that claims it: once per event, on any
// number of processes) and active rules of its workspace listen to its type, one job is created
// with those rules' ids in order. Each cycle claims due jobs with a lease and runs them oldest
// first, a conversation's jobs of one claim together. The workspace's rules come from the
// process's rule cache (compiled once per version of the rule set) and are first tested on the
// conversation as read: a job none of whose rules holds (most) costs no transaction. Otherwise the
// conversation's jobs run in one transaction whose first statement deletes them while the lease
// holds (their rows stay locked until the rules' effects commit with the deletion: a rule runs at
// most once per event, however many processes hold the job), each rule tested again under the
// conversation's lock as the rules before it left it, and
// each rule that holds runs in a savepoint of its own: its run is atomic, a run that no longer
// fits is undone alone and the next rule still runs, and its events carry
// `actor: { type: "rule", id }`, so they are never planned: no loops.
import type { Db } from '../db/database.js';
import type { AutomationJobRepository, AutomationJobRow, ClaimedAutomationJob } from '../db/repositories/automation/automation-job.repository.js';
import type { AutomationRuleRepository } from '../db/repositories/automation/automation-rule.repository.js';
import type { ConversationRepository, ConversationWithContactRow } from '../db/repositories/conversation.repository.js';
import type { EventRepository } from '../db/repositories/event.repository.js';
import type { Executor } from '../db/repositories/executor.js';
import type { MessageRepository } from '../db/repositories/message.repository.js';
import type { FanOutEventRow } from '../db/repositories/webhook-delivery.repository.js';
import type { ActionRunner } from '../domain/automation/actions.js';
import { RULE_EVENTS } from '../domain/automation/automation-vocabulary.js';
import type { Assignment } from '../domain/assignment/assignment.js';
import { conditionsHold, mayHold, testedSubject, type ConditionSubject, type TestedSubject } from '../domain/automation/conditions.js';
import type { MatchResult, RegexRunner } from '../domain/automation/regex-safety.js';
import type { CachedRule, RuleCache, RuleSet } from '../domain/automation/rule-cache.js';
import type { ConversationWrites } from '../domain/conversations/conversation.writes.js';
import { inSavepoint, inTransaction } from '../domain/shared/unit-of-work.js';
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
/** Planned jobs whose contact message a process keeps for their run, at most. */
const CARRIED_KEPT = 10_000;

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

/** Whether one of `rules` holds on `subject` (tested in order, up to the first that does). */
async function anyHolds(rules: readonly CachedRule[], subject: TestedSubject, match: Pick<RegexRunner, 'match'>): Promise<boolean> {
  for (const rule of rules) if (await conditionsHold(rule.conditions, subject, match)) return true;
  return false;
}

/** The jobs of each conversation, in order, the conversations in the order of their first job. */
function byConversation(claimed: readonly ClaimedAutomationJob[]): ClaimedAutomationJob[][] {
  const groups = new Map<string, ClaimedAutomationJob[]>();
  for (const job of claimed) {
    const group = groups.get(job.conversation_id);
    if (group) group.push(job);
    else groups.set(job.conversation_id, [job]);
  }
  return [...groups.values()];
}

/** The active rules of a workspace listening to an event type, in order. */
type Listening = (workspaceId: string, type: string) => readonly CachedRule[];

export interface AutomationRunnerDeps {
  db: Db;
  rules: Pick<AutomationRuleRepository, 'recordRuns'>;
  ruleCache: RuleCache;
  jobs: AutomationJobRepository;
  events: Pick<EventRepository, 'findMany'>;
  conversations: Pick<ConversationRepository, 'findById' | 'findManyWithContact'>;
  messages: Pick<MessageRepository, 'lastFromContact'>;
  writes: Pick<ConversationWrites, 'lock'>;
  actions: ActionRunner;
  assignment: Pick<Assignment, 'holdFor'>;
  regex: Pick<RegexRunner, 'match' | 'close'>;
  clock: Clock;
  onError: (error: unknown) => void;
  random?: () => number;
}

/** A job's matches: each pattern run once per text (the look before the transaction and the tests in it share them). */
function remembered(regex: Pick<RegexRunner, 'match'>): Pick<RegexRunner, 'match'> {
  const results = new Map<string, Promise<MatchResult>>();
  return {
    match(pattern, input) {
      const key = `${pattern}\u0000${input}`;
      let result = results.get(key);
      if (!result) results.set(key, (result = regex.match(pattern, input)));
      return result;
    },
  };
}

export function createAutomationRunner(deps: AutomationRunnerDeps) {
  const { db, rules, ruleCache, jobs, events, conversations, messages, writes, actions, assignment, regex, clock, onError, random } = deps;
  let draining: Promise<void> | null = null;
  let again = false;
  let stopping = false;
  /** The contact's message of each job this process planned, taken from the payload the plan read (a job planned elsewhere reads its event). */
  const carriedByJob = new Map<string, string | null>();

  /** The event's jobs: rules listening, in order, unless a rule made the change or a message is not the contact's. */
  function jobsOf(rows: readonly FanOutEventRow[], payloads: Map<string, EventPayload>, listening: Listening, now: string): AutomationJobRow[] {
    return rows.flatMap((event) => {
      const payload = payloads.get(event.id);
      if (!payload || payload.actor?.type === 'rule') return [];
      if (event.type === 'message.created' && payload.data.sender_type !== 'contact') return [];
      const conversationId = conversationIdOf(event.type, payload.data);
      if (typeof conversationId !== 'string') return [];
      return [{
        id: event.id, workspace_id: event.workspace_id, conversation_id: conversationId, kind: 'rules', event_type: event.type,
        rule_ids: JSON.stringify(listening(event.workspace_id, event.type).map((rule) => rule.id)), rules_done: 0, status: 'pending', attempts: 0, last_error: null,
        next_attempt_at: now, created_at: now, updated_at: now,
      } satisfies AutomationJobRow];
    });
  }

  /** The contact's message the job's event carries, once per job. */
  async function carriedMessageOf(job: ClaimedAutomationJob): Promise<string | null> {
    const planned = carriedByJob.get(job.id);
    if (carriedByJob.delete(job.id)) return planned!;
    const [event] = await events.findMany(job.workspace_id, [job.id]);
    return event ? contactMessageOf(job.event_type, (JSON.parse(event.payload) as EventPayload).data) : null;
  }

  /** What the conditions read, the conversation as given: the event's contact message, or the contact's latest. */
  const subjectOf = (conversation: ConversationWithContactRow, body: string | null): ConditionSubject => ({
    product_id: conversation.product_id, type: conversation.type, source: conversation.source, status: conversation.status,
    priority: conversation.priority, tags: parseTags(conversation.tags), assignee_id: conversation.assignee_id, title: conversation.title,
    'contact.email': conversation.contact_email, 'message.body': body, ai_summary: conversation.ai_summary,
  });

  /** The conversations the jobs are about, read in one query per workspace. */
  async function conversationsOf(
    listed: readonly Pick<AutomationJobRow, 'workspace_id' | 'conversation_id'>[], tx: Executor,
  ): Promise<Map<string, ConversationWithContactRow>> {
    const read = new Map<string, ConversationWithContactRow>();
    for (const workspaceId of new Set(listed.map((job) => job.workspace_id))) {
      const ids = [...new Set(listed.filter((job) => job.workspace_id === workspaceId).map((job) => job.conversation_id))];
      for (const row of await conversations.findManyWithContact(workspaceId, ids, tx)) read.set(row.id, row);
    }
    return read;
  }

  /**
   * The jobs worth creating: those for which a rule may hold on the conversation as read now (its
   * conditions but the patterns: no regular expression runs in the fan-out's transaction), the
   * look the runner would otherwise take when it claims the job, taken at once on every event of
   * the batch. Most events then cost no job at all. Kept without a look: a job whose
   * conversation has a job waiting before it (that job's rules may change what this one's see;
   * the waiting jobs are read before the conversations, so a job that finished in between shows
   * its changes), and one whose rules read a contact message the event does not carry.
   */
  async function mayAct(
    planned: AutomationJobRow[], listening: Listening, payloads: Map<string, EventPayload>, tx: Executor,
  ): Promise<AutomationJobRow[]> {
    if (planned.length === 0) return planned;
    const waiting = await jobs.pendingFor([...new Set(planned.map((job) => job.conversation_id))], tx);
    const read = await conversationsOf(planned, tx);
    return planned.filter((job) => {
      const conversation = read.get(job.conversation_id);
      if (!conversation) return false;
      const rules = listening(job.workspace_id, job.event_type);
      const body = contactMessageOf(job.event_type, payloads.get(job.id)!.data);
      const subject = testedSubject(subjectOf(conversation, body));
      const keep = waiting.has(job.conversation_id) ||
        rules.some((rule) => (body === null && rule.conditions.fields.has('message.body')) || mayHold(rule.conditions, subject));
      if (keep) waiting.add(job.conversation_id);
      return keep;
    });
  }

  /** The job's rules active in `set`, in the job's order (a rule deleted or deactivated since the event is skipped). */
  const rulesIn = (set: RuleSet, job: ClaimedAutomationJob): CachedRule[] =>
    (JSON.parse(job.rule_ids) as string[]).slice(job.rules_done).flatMap((id) => set.byId.get(id) ?? []);

  /**
   * What the looks of a claim's jobs read, once for all of them: their workspaces' rule sets and
   * their conversations, as they stood at the claim (the fan-out's look read them earlier still);
   * a conversation a job's rules ran on is read again for the next job's look.
   */
  interface ClaimLook {
    sets: Map<string, RuleSet>;
    conversations: Map<string, ConversationWithContactRow>;
  }

  /** A job with its rules as the claim found them (read after the claim) and the contact's message they read. */
  interface Planned {
    job: ClaimedAutomationJob;
    rules: CachedRule[];
    body: string | null;
  }

  /**
   * One conversation's jobs, the first with a rule that held on the conversation as read (`look`),
   * in one transaction that deletes them while the lease holds (a job whose lease was lost runs
   * nothing). Each job's rules are tested again under the conversation's lock, in the jobs' order,
   * on the conversation as the rules before them left it, and each that holds runs in a savepoint
   * of its own, its events naming it as their actor.
   */
  async function runRules(planned: readonly Planned[], look: ConversationWithContactRow, match: Pick<RegexRunner, 'match'>): Promise<void> {
    const { workspace_id: workspaceId, id: conversationId } = look;
    await inTransaction(db, async (work) => {
      const deleted = await jobs.finish(planned.map(({ job }) => job), work.tx);
      const listed = planned.filter(({ job }) => deleted.has(job.id));
      if (listed.length === 0) return;
      await assignment.holdFor(work, look.product_id, listed.some(({ rules }) => rules.some((rule) => rule.assignsInTurn)));
      const at = await writes.lock(work, conversationId);
      const read = await conversations.findById(workspaceId, conversationId, work.tx);
      if (!read) return;
      let conversation: ConversationWithContactRow = read;
      const ran: string[] = [];
      for (const { job, body, rules: jobRules } of listed) {
        for (const rule of jobRules) {
          if (!(await conditionsHold(rule.conditions, testedSubject(subjectOf(conversation, body)), match))) continue;
          const performer = { workspaceId, id: rule.id, name: rule.name, memberId: null };
          const on = conversation;
          try {
            // The next rule is tested on the conversation as this run left it (a run undone left it as it was).
            conversation = (await inSavepoint(work, (run) => actions.run(run, on, rule.actions, performer), { actor: { type: 'rule', id: rule.id } })) ?? on;
            ran.push(rule.id);
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            // Its actions no longer fit (a member or saved reply deleted since): this run is undone and skipped, the next rules go on.
            onError(new Error(`automation rule ${rule.id} skipped on event ${job.id}: ${error.message}`));
          }
        }
      }
      await rules.recordRuns(workspaceId, ran, at, work.tx);
    }, { sharedReads: true });
  }

  /** Counts a failed attempt of each job: it falls due again later, or gives up. */
  async function failed(failedJobs: readonly ClaimedAutomationJob[], error: unknown): Promise<void> {
    for (const job of failedJobs) {
      const attempts = job.attempts + 1;
      const giveUp = attempts > JOB_RETRY_SCHEDULE_MS.length;
      await jobs.recordFailure(job, retryOutcome(attempts, errorText(error), giveUp, Date.parse(clock.now()), JOB_RETRY_SCHEDULE_MS, random));
    }
  }

  /**
   * One conversation's jobs of a claim, in order (a conversation created with its contact's first
   * message has two: conversation.created and message.created). Their rules are first tested on
   * the conversation as read outside a transaction: the jobs before the first one with a rule that
   * holds changed nothing, and join `idle`, deleted with the claim's others in one statement (a
   * process that stops first leaves them to be tested again); that job and those after it run in
   * one transaction (`runRules`: the later ones' rules see the earlier ones' changes). A process
   * that stops before it commits leaves them all to the next claim: nothing of them was kept.
   */
  async function runConversation(group: readonly ClaimedAutomationJob[], idle: ClaimedAutomationJob[], look: ClaimLook): Promise<void> {
    let running: Planned[] = [];
    try {
      const { workspace_id: workspaceId, conversation_id: conversationId } = group[0];
      const set = look.sets.get(workspaceId)!;
      const listed = group.map((job) => ({ job, rules: rulesIn(set, job) }));
      const read = !listed.some(({ rules }) => rules.length > 0) ? undefined
        : look.conversations.get(conversationId) ?? (await conversations.findById(workspaceId, conversationId));
      const match = remembered(regex);
      let first = group.length;
      const planned: Planned[] = [];
      for (const [index, { job, rules }] of listed.entries()) {
        const body = read && rules.length > 0
          ? ((await carriedMessageOf(job)) ?? (await messages.lastFromContact(workspaceId, conversationId, clock.now()))?.body ?? null) : null;
        planned.push({ job, rules, body });
        if (read && first === group.length && (await anyHolds(rules, testedSubject(subjectOf(read, body)), match))) first = index;
      }
      idle.push(...group.slice(0, first));
      running = planned.slice(first);
      if (running.length === 0) return;
      look.conversations.delete(conversationId);
      await runRules(running, read!, match);
    } catch (error) {
      await failed(running.length > 0 ? running.map(({ job }) => job) : group, error);
    }
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      for (;;) {
        if (stopping) return;
        const nowMs = Date.parse(clock.now());
        const claimed = await jobs.claimDue(iso(nowMs), iso(nowMs + JOB_LEASE_MS), CLAIM_BATCH, db);
        const idle: ClaimedAutomationJob[] = [];
        try {
          const look: ClaimLook = claimed.length === 0 ? { sets: new Map(), conversations: new Map() } : {
            sets: await ruleCache.current([...new Set(claimed.map((job) => job.workspace_id))], db),
            conversations: await conversationsOf(claimed, db),
          };
          for (const group of byConversation(claimed)) if (!stopping) await runConversation(group, idle, look);
        } finally {
          await jobs.finish(idle);
        }
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
      const sets = await ruleCache.current([...new Set(triggers.map((event) => event.workspace_id))], tx);
      const listening: Listening = (workspaceId, type) => sets.get(workspaceId)?.byEvent.get(type) ?? [];
      const wanted = triggers.filter((event) => listening(event.workspace_id, event.type).length > 0);
      const payloads = new Map<string, EventPayload>();
      for (const workspaceId of new Set(wanted.map((event) => event.workspace_id))) {
        const ids = wanted.filter((event) => event.workspace_id === workspaceId).map((event) => event.id);
        for (const row of await events.findMany(workspaceId, ids, tx)) payloads.set(row.id, JSON.parse(row.payload) as EventPayload);
      }
      const planned = await mayAct(jobsOf(wanted, payloads, listening, clock.now()), listening, payloads, tx);
      await jobs.insertMany(planned, tx);
      // Kept for the run (a plan rolled back leaves entries no job takes: the map is bounded).
      if (carriedByJob.size > CARRIED_KEPT) carriedByJob.clear();
      for (const job of planned) carriedByJob.set(job.id, contactMessageOf(job.event_type, payloads.get(job.id)!.data));
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

    /** Stops claiming; the job running finishes (its transaction commits or rolls back), the rest of the claim falls due again when its lease runs out. */
    async stop(): Promise<void> {
      stopping = true;
      await draining;
      await regex.close();
    },
  };
}

export type AutomationRunner = ReturnType<typeof createAutomationRunner>;
