// Triage: a conversation's text (its title and first contact message) matched against its product's
// open issues, with the detector, thresholds and review band of the deduplicating create. At or
// above the auto-link threshold the run suggests linking the conversation to that issue; otherwise
// it drafts a new issue, naming the review band's issues as possible duplicates. A product in `auto`
// has the platform accept the suggestion at once. docs/triage.md describes the rules.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { ConversationRepository, ConversationRow } from '../../db/repositories/conversation.repository.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { IssueRepository, IssueRow } from '../../db/repositories/issue.repository.js';
import type { MessageRepository } from '../../db/repositories/message.repository.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import type { SuggestionChanges, SuggestionFilters, SuggestionRepository, SuggestionRow } from '../../db/repositories/suggestion.repository.js';
import type { IssueText } from '../../dedup/detector.js';
import { AppError, checkAll, invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import { issueTitle } from '../../summaries/title.js';
import type { Actor } from '../accounts/actor.js';
import { findIssuesByRefs } from '../issues/issue-refs.js';
import type { IssueMatcher, Match } from '../issues/issue-matcher.js';
import type { IssueWrites } from '../issues/issue.writes.js';
import type { Priority, SuggestionKind, SuggestionStatus, TriageMode } from '../shared/enums.js';
import { holdLock, inTransaction, type Work } from '../shared/unit-of-work.js';
import { calibrationOf, type TriageCalibration } from './classifier/calibration.js';
import { triageDecision } from './classifier/triage-decision.js';
import type { StoredDuplicate, Suggestion } from './suggestion.shapes.js';
import { triageLock, type SuggestionWrites } from './suggestion.writes.js';
import { cutAtWord } from './text.js';

export type { Suggestion } from './suggestion.shapes.js';

/** A create suggestion's title is at most this long. */
export const DRAFT_TITLE_MAX = 120;
/** The most a re-run's answer lists (the API's largest page). */
const RERUN_PAGE: Page = { limit: 200, offset: 0 };

/**
 * Writes a create suggestion's title (a chat model's headline) from the conversation's text; null
 * when it has none. Called before the run's transaction, never under a lock; a failure falls back
 * to the conversation's title.
 */
export type HeadlineProvider = (conversation: { workspaceId: string; id: string; title: string; text: string | null }) => Promise<string | null>;

/** Holds a run's right to write, in its transaction: a job's lease (see runTriage). */
export type Claim = (work: Work) => Promise<boolean>;
const CLAIMED: Claim = async () => true;

export interface AcceptInput {
  title?: string;
  description?: string | null;
  priority?: Priority;
  issue_id?: string;
}

export interface QueueFilters {
  productId?: string;
  statuses?: SuggestionStatus[];
  kinds?: SuggestionKind[];
}

export interface TriageServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  conversations: Pick<ConversationRepository, 'findById'>;
  messages: Pick<MessageRepository, 'firstOfContact'>;
  products: Pick<ProductRepository, 'findById'>;
  issues: Pick<IssueRepository, 'findById' | 'findManyByIds' | 'findManyByShortcodes' | 'insertSource'>;
  issueWrites: Pick<IssueWrites, 'create' | 'link'>;
  matcher: IssueMatcher;
  suggestions: SuggestionRepository;
  /** The one path every suggestion write takes. */
  suggestionWrites: SuggestionWrites;
  /** The chat model's headline for create suggestions; none: the conversation's title. */
  headline?: HeadlineProvider | null;
  clock: Clock;
}

const DETECTION_FAILED = 'duplicate detection failed; nothing was written. Retry';

function requireOpen(row: SuggestionRow): void {
  if (row.status !== 'open') throw new AppError('validation_error', `suggestion is already ${row.status}`);
}

/** "" and null both clear the draft's description. */
const clearable = (value: string | null): string | null => (value === '' ? null : value);

export function createTriageService(deps: TriageServiceDeps) {
  const { db, dialect, conversations, messages, products, issues, issueWrites, matcher, suggestions, suggestionWrites, clock } = deps;

  async function findConversation(actor: Actor, id: string): Promise<ConversationRow> {
    const conversationId = parseUuid(id);
    const row = conversationId ? await conversations.findById(actor.workspaceId, conversationId) : undefined;
    if (!row) throw notFound('conversation');
    return row;
  }

  async function findSuggestion(actor: Actor, id: string, tx: Executor = db): Promise<SuggestionRow> {
    const suggestionId = parseUuid(id);
    const row = suggestionId ? await suggestions.findById(actor.workspaceId, suggestionId, tx) : undefined;
    if (!row) throw notFound('suggestion');
    return row;
  }

  /** What is matched: the conversation's title and its contact's first message. */
  async function reportOf(conversation: ConversationRow, tx: Executor = db): Promise<IssueText> {
    const first = await messages.firstOfContact(conversation.workspace_id, conversation.id, tx);
    return { title: conversation.title, description: first?.body ?? null };
  }

  /** The chat model's headline, else an issue title from the conversation's text (src/summaries/title.ts), else its title. */
  async function draftTitle(conversation: ConversationRow, report: IssueText): Promise<string> {
    const source = { title: conversation.title, text: report.description };
    const headline = await deps.headline?.({ workspaceId: conversation.workspace_id, id: conversation.id, ...source }).catch(() => null);
    return cutAtWord(headline?.trim() || (await issueTitle(source)) || conversation.title, DRAFT_TITLE_MAX);
  }

  /** The suggestion a match makes: link to the matched issue, or a draft with the review band's issues. */
  function suggestionOf(conversation: ConversationRow, match: Pick<Match, 'matched' | 'score' | 'possible'>, detector: string, title: string): SuggestionRow {
    const now = clock.now();
    const common = {
      id: newId(), workspace_id: conversation.workspace_id, product_id: conversation.product_id, conversation_id: conversation.id,
      status: 'open', score: match.score, detector, created_at: now, updated_at: now,
    };
    if (match.matched) {
      return { ...common, kind: 'link', issue_id: match.matched.id, title: null, description: null, priority: null, possible_duplicates: '[]' };
    }
    const possible: StoredDuplicate[] = match.possible.map(({ issue, score }) => ({ issue_id: issue.id, score }));
    return {
      ...common, kind: 'create', issue_id: null, title, description: conversation.ai_summary, priority: conversation.priority,
      possible_duplicates: JSON.stringify(possible),
    };
  }

  /**
   * Links or creates what an open suggestion (with `draft` applied) says, records the issue's
   * provenance, and marks the suggestion accepted. `actor` null: the platform accepts it (`auto`).
   */
  async function acceptIn(work: Work, current: SuggestionRow, draft: SuggestionChanges, actor: Actor | null): Promise<Suggestion> {
    const { tx } = work;
    const next = { ...current, ...draft };
    const conversation = (await conversations.findById(current.workspace_id, current.conversation_id, tx))!;
    const report = await reportOf(conversation, tx);
    const recordSource = (issue: IssueRow) => issues.insertSource({
      id: newId(), workspace_id: current.workspace_id, issue_id: issue.id, api_key_id: actor?.apiKeyId ?? null,
      member_id: actor?.member?.id ?? null, title: report.title, description: report.description,
      matched_existing: next.kind === 'link' ? 1 : 0, score: next.score, detector: current.detector,
      origin: actor ? 'triage' : 'triage_auto', created_at: clock.now(),
    }, tx);

    const link = { conversationId: conversation.id, acceptedSuggestionId: current.id };
    let issueId: string;
    if (next.kind === 'link') {
      const issue = (await issues.findById(current.workspace_id, next.issue_id!, tx))!;
      await recordSource(issue);
      await issueWrites.link(work, current.workspace_id, issue.id, link);
      issueId = issue.id;
    } else {
      const product = (await products.findById(current.workspace_id, current.product_id, tx))!;
      const { row, dedupVersion } = await issueWrites.create(work, {
        workspaceId: current.workspace_id, productId: product.id, prefix: product.issue_prefix, title: next.title!,
        description: next.description, status: 'pending', priority: next.priority as Priority, assigneeId: null, aiGenerated: true,
      }, { alongside: recordSource, link });
      matcher.created(work, row, dedupVersion);
      issueId = row.id;
    }
    return suggestionWrites.update(work, current, { ...draft, status: 'accepted', issue_id: issueId, updated_at: clock.now() });
  }

  /** The changes an accept's body makes to the suggestion before it is accepted (400 for what does not apply). */
  async function draftOf(actor: Actor, current: SuggestionRow, input: AcceptInput, tx: Executor): Promise<SuggestionChanges> {
    const onlyFor = (kind: SuggestionKind, field: keyof AcceptInput) => () => {
      if (input[field] !== undefined && current.kind !== kind) {
        throw invalidField(field, `applies to ${kind} suggestions only; this one ${current.kind === 'link' ? 'links to an existing issue' : 'creates an issue'}`);
      }
    };
    const redirectTarget = async (): Promise<string | undefined> => {
      onlyFor('link', 'issue_id')();
      if (input.issue_id === undefined) return undefined;
      const issue = (await findIssuesByRefs(issues, actor.workspaceId, [input.issue_id], tx)).get(input.issue_id);
      if (!issue) throw invalidField('issue_id', 'is not an issue of this workspace');
      if (issue.product_id !== current.product_id) throw invalidField('issue_id', 'is not an issue of this conversation\'s product');
      return issue.id;
    };
    const [, , , target] = await checkAll([
      onlyFor('create', 'title'), onlyFor('create', 'description'), onlyFor('create', 'priority'), redirectTarget,
    ] as const);
    const draft: SuggestionChanges = {};
    if (input.title !== undefined) draft.title = input.title;
    if (input.description !== undefined) draft.description = clearable(input.description);
    if (input.priority !== undefined) draft.priority = input.priority;
    // The detector's score was the suggested issue's: it says nothing of the one a person chose instead.
    if (target !== undefined && target !== current.issue_id) Object.assign(draft, { issue_id: target, score: null });
    return draft;
  }

  /**
   * One triage run for the conversation: `rerun` first dismisses its open suggestions; otherwise a
   * conversation that already has suggestions is left as it is (the run happens once). `mode` auto
   * accepts the new suggestion at once. Null when nothing was suggested.
   */
  async function run(conversation: ConversationRow, mode: 'suggest' | 'auto', rerun: boolean, claim: Claim): Promise<Suggestion | null> {
    const { workspace_id: workspaceId } = conversation;
    const report = await reportOf(conversation);
    const prepared = await matcher.prepare(report, workspaceId, conversation.product_id, DETECTION_FAILED);
    const title = await draftTitle(conversation, report);
    return inTransaction(db, async (work) => {
      const { tx } = work;
      await holdLock(dialect, work, triageLock(conversation.id));
      if (!(await claim(work))) return null;
      if (!rerun && (await suggestions.existForConversation(workspaceId, conversation.id, tx))) return null;
      await suggestionWrites.endOpen(work, workspaceId, conversation.id);
      const match = await matcher.match(tx, workspaceId, conversation.product_id, prepared, DETECTION_FAILED);
      const decision = triageDecision(match, report, prepared.detector);
      const row = suggestionOf(conversation, decision, prepared.detector, title);
      const suggestion = await suggestionWrites.create(work, row);
      // `auto` links only at the calibrated threshold of the matcher that matched; an uncalibrated link waits for a person.
      const accept = mode === 'auto' && (row.kind === 'create' || decision.calibrated);
      return accept ? acceptIn(work, row, {}, null) : suggestion;
    });
  }

  const shownPage = async (workspaceId: string, page: PageOf<SuggestionRow>): Promise<PageOf<Suggestion>> =>
    ({ rows: await suggestionWrites.shown(workspaceId, page.rows, db), total: page.total });

  return {
    /** Throws not_found unless the suggestion exists in the actor's workspace. */
    async ensureExists(actor: Actor, id: string): Promise<void> {
      await findSuggestion(actor, id);
    },

    /**
     * The automatic run, once per conversation (its job, asked for by the contact's first message):
     * nothing when the product's triage is off, the conversation is gone, or triage already ran for
     * it. `claim` runs in the transaction of the run's effect, or alone when there is none; false:
     * the run writes nothing (its job was taken from it).
     */
    async runTriage(workspaceId: string, conversationId: string, claim: Claim = CLAIMED): Promise<Suggestion | null> {
      const conversation = await conversations.findById(workspaceId, conversationId);
      const product = conversation && (await products.findById(workspaceId, conversation.product_id));
      if (!conversation || !product || product.triage === 'off') {
        await inTransaction(db, claim);
        return null;
      }
      return run(conversation, product.triage as Exclude<TriageMode, 'off'>, false, claim);
    },

    /**
     * POST /conversations/{id}/triage: a person asks, so it runs whatever the product's setting;
     * `off` suggests as `suggest` does, `auto` accepts. Answers the conversation's suggestions.
     */
    async rerun(actor: Actor, conversationId: string): Promise<{ page: PageOf<Suggestion>; limit: number; offset: number }> {
      const conversation = await findConversation(actor, conversationId);
      const product = (await products.findById(actor.workspaceId, conversation.product_id))!;
      await run(conversation, product.triage === 'auto' ? 'auto' : 'suggest', true, CLAIMED);
      const page = await suggestions.listByConversation(actor.workspaceId, conversation.id, RERUN_PAGE);
      return { page: await shownPage(actor.workspaceId, page), ...RERUN_PAGE };
    },

    /** The matcher triage runs now (the `auto` matcher changes once its model loads) and its classifier's published figures. */
    calibration(): TriageCalibration {
      return calibrationOf(matcher.name);
    },

    async listForConversation(actor: Actor, conversationId: string, page: Page): Promise<PageOf<Suggestion>> {
      const conversation = await findConversation(actor, conversationId);
      return shownPage(actor.workspaceId, await suggestions.listByConversation(actor.workspaceId, conversation.id, page));
    },

    /** The triage queue. */
    async list(actor: Actor, filters: QueueFilters, page: Page): Promise<PageOf<Suggestion>> {
      const query: SuggestionFilters = { productId: filters.productId, statuses: filters.statuses, kinds: filters.kinds };
      return shownPage(actor.workspaceId, await suggestions.list(actor.workspaceId, query, page));
    },

    async accept(actor: Actor, id: string, input: AcceptInput): Promise<Suggestion> {
      const found = await findSuggestion(actor, id);
      return inTransaction(db, async (work) => {
        await holdLock(dialect, work, triageLock(found.conversation_id));
        const current = await findSuggestion(actor, found.id, work.tx);
        requireOpen(current);
        return acceptIn(work, current, await draftOf(actor, current, input, work.tx), actor);
      });
    },

    async dismiss(actor: Actor, id: string): Promise<Suggestion> {
      const found = await findSuggestion(actor, id);
      return inTransaction(db, async (work) => {
        await holdLock(dialect, work, triageLock(found.conversation_id));
        const current = await findSuggestion(actor, found.id, work.tx);
        requireOpen(current);
        return suggestionWrites.update(work, current, { status: 'dismissed', updated_at: clock.now() });
      });
    },
  };
}

export type TriageService = ReturnType<typeof createTriageService>;
