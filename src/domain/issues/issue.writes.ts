// Every write of an issue goes through here, because each must do the same things: hold the
// product's issue lock while tallies change (and numbering happens), keep issue_tallies right (the
// repository), move the product's dedup version when what duplicate detection compares changes,
// record the event in the same transaction, and index the text once it is committed. Linking a
// conversation (or creating an issue from one) ends the conversation's open triage suggestions.
import type { Dialect } from '../../db/dialect.js';
import type { EmbeddingRepository } from '../../db/repositories/embedding.repository.js';
import type { IssueChanges, IssueRepository, IssueRow } from '../../db/repositories/issue.repository.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { TagRepository } from '../../db/repositories/tag.repository.js';
import type { DuplicateDetector } from '../../dedup/detector.js';
import type { DomainEvent } from '../../events/event-types.js';
import type { Outbox } from '../../events/outbox.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { holdAssignee } from '../accounts/member-ref.js';
import { previousOf } from '../shared/changes.js';
import type { IssueStatus, Priority } from '../shared/enums.js';
import { toIssueBase, toIssueDetail, type IssueDetail } from './issue.shapes.js';
import { holdLocks, type Work } from '../shared/unit-of-work.js';
import { parseTags, retag } from '../tags/tags.js';
import type { SuggestionWrites } from '../triage/suggestion.writes.js';

/**
 * The lock every transaction takes before it creates issues of a product or changes their
 * tallied fields: on PostgreSQL, writers of one product then update its tally rows one at a
 * time, and never deadlock over them. (SQLite runs one transaction at a time anyway.)
 */
export const productIssuesLock = (productId: string) => `product-issues:${productId}`;

/**
 * The lock of an issue's row: every write to an existing issue holds it from before it reads the
 * row until it commits, so none writes back what another changed meanwhile (the row is written
 * whole, and its tallies moved from what was read). Taken before the product's issue lock.
 */
export const issueLock = (issueId: string) => `issue:${issueId}`;

/** Fields the issue counts behind pagination.total are kept by (issue_tallies). */
const TALLIED_FIELDS = ['status', 'priority', 'assignee_id'] as const;
/** Fields whose change alters what duplicate detection compares against. */
const DEDUP_FIELDS = ['title', 'description', 'status'] as const;

export interface NewIssue {
  workspaceId: string;
  productId: string;
  /** The product's issue prefix, which the shortcode starts with. */
  prefix: string;
  title: string;
  description: string | null;
  status: IssueStatus;
  priority: Priority;
  assigneeId: string | null;
  /** Drafted by triage rather than typed by a person (a create suggestion accepted). */
  aiGenerated?: boolean;
}

/** The conversation a write links, and the suggestion being accepted by it (which the link does not end). */
export interface ConversationLink {
  conversationId: string;
  acceptedSuggestionId?: string;
}

export interface IssueWritesDeps {
  dialect: Pick<Dialect, 'lockKeyInTransaction' | 'lockKeysInTransaction'>;
  issues: IssueRepository;
  members: Pick<MemberRepository, 'findById'>;
  embeddings: Pick<EmbeddingRepository, 'bumpProductVersion'>;
  detector: Pick<DuplicateDetector, 'indexIssue'>;
  outbox: Outbox;
  tags: Pick<TagRepository, 'retag'>;
  suggestionWrites: Pick<SuggestionWrites, 'endOpen'>;
  clock: Clock;
}

export function createIssueWrites({ dialect, issues, members, embeddings, detector, outbox, tags, suggestionWrites, clock }: IssueWritesDeps) {
  const lockProductIssues = (tx: Executor, productId: string) => dialect.lockKeyInTransaction(tx, productIssuesLock(productId));
  /** A write to an issue without its lock is a bug in the caller, not a request to refuse. */
  const requireLocked = (work: Work, issueIds: readonly string[]) => {
    const unlocked = issueIds.find((id) => !work.locks.has(issueLock(id)));
    if (unlocked) throw new Error(`issue ${unlocked} written without its lock`);
  };

  /** Stores the issue's vector after its text is committed; never rejects, never delays the response. */
  const indexAfterCommit = (work: Work, row: IssueRow) =>
    work.afterCommit(() => void detector.indexIssue({
      id: row.id, workspaceId: row.workspace_id, productId: row.product_id, title: row.title, description: row.description,
    }));

  const detailIn = async (tx: Executor, workspaceId: string, id: string): Promise<IssueDetail> =>
    toIssueDetail((await issues.findDetail(workspaceId, { id }, tx))!);

  const updatedEvent = (detail: IssueDetail, previous: Record<string, unknown>, workspaceId: string): DomainEvent =>
    ({ type: 'issue.updated', workspaceId, data: detail, previous });
  const recordUpdated = (work: Work, detail: IssueDetail, previous: Record<string, unknown>, workspaceId: string) =>
    outbox.record(work, updatedEvent(detail, previous, workspaceId));

  /** The conversation's open suggestions end: the team has decided what it is about. Before any issue or product lock. */
  const endSuggestions = (work: Work, workspaceId: string, link: ConversationLink) =>
    suggestionWrites.endOpen(work, workspaceId, link.conversationId, link.acceptedSuggestionId);

  /** Links or unlinks; when that changed anything, the issue's event says which conversations it had. */
  async function relink(work: Work, workspaceId: string, issueId: string, change: (tx: Executor) => Promise<boolean>): Promise<IssueDetail> {
    const before = await detailIn(work.tx, workspaceId, issueId);
    if (!(await change(work.tx))) return before;
    const after = await detailIn(work.tx, workspaceId, issueId);
    await recordUpdated(work, after, { linked_conversations: before.linked_conversations }, workspaceId);
    return after;
  }

  return {
    /**
     * Ends the open suggestions of a conversation the transaction is about to link, under its
     * triage lock: for a caller that takes another lock first (the product's dedup lock), since a
     * triage run takes the triage lock before that one. `link` and `create` do it themselves.
     */
    endSuggestions,

    /**
     * Takes the issues' locks (all at once, before any other lock the write takes) until the
     * transaction ends, and gives the time to stamp the writes with. Read the issues after it.
     */
    async lock(work: Work, issueIds: readonly string[]): Promise<string> {
      await holdLocks(dialect, work, issueIds.map(issueLock));
      return clock.now();
    },

    /**
     * A new issue with the next shortcode of its prefix, linked to `link`'s conversation when
     * given. `alongside` runs after the insert and before the event is recorded, so the event
     * shows what the creating call also wrote (its provenance record).
     */
    async create(
      work: Work, input: NewIssue, { alongside, link }: { alongside?: (row: IssueRow) => Promise<void>; link?: ConversationLink } = {},
    ): Promise<{ row: IssueRow; detail: IssueDetail; dedupVersion: number }> {
      const { tx } = work;
      if (link) await endSuggestions(work, input.workspaceId, link);
      await holdAssignee(dialect, members, work, input.workspaceId, input.assigneeId);
      await lockProductIssues(tx, input.productId);
      const number = await issues.nextNumber(input.workspaceId, input.prefix, tx);
      const dedupVersion = await embeddings.bumpProductVersion(input.workspaceId, input.productId, tx);
      const now = clock.now();
      const row: IssueRow = {
        id: newId(),
        workspace_id: input.workspaceId,
        product_id: input.productId,
        shortcode: `${input.prefix}-${number}`,
        title: input.title,
        description: input.description,
        status: input.status,
        priority: input.priority,
        assignee_id: input.assigneeId,
        resolution_comment: null,
        is_ai_generated: input.aiGenerated ? 1 : 0,
        tags: '[]',
        created_at: now,
        updated_at: now,
      };
      await issues.insert(row, dedupVersion, tx);
      await alongside?.(row);
      if (link) await issues.link(row.workspace_id, row.id, link.conversationId, now, tx);
      const detail = alongside || link
        ? await detailIn(tx, row.workspace_id, row.id)
        : { ...toIssueBase(row), linked_conversations: [], sources_count: 0 };
      await outbox.record(work, { type: 'issue.created', workspaceId: row.workspace_id, data: detail });
      indexAfterCommit(work, row);
      return { row, detail, dedupVersion };
    },

    /** Writes a PATCH's effective changes (updated_at among them). */
    async update(work: Work, current: IssueRow, changes: IssueChanges): Promise<IssueDetail> {
      requireLocked(work, [current.id]);
      const { tx } = work;
      await holdAssignee(dialect, members, work, current.workspace_id, changes.assignee_id, current.assignee_id);
      if (TALLIED_FIELDS.some((field) => field in changes)) await lockProductIssues(tx, current.product_id);
      const next = { ...current, ...changes };
      const dedupVersion = DEDUP_FIELDS.some((field) => field in changes)
        ? await embeddings.bumpProductVersion(current.workspace_id, current.product_id, tx)
        : undefined;
      await issues.update(current, next, tx, dedupVersion);
      if (changes.tags !== undefined) await retag(tags, tx, current.workspace_id, 'issue', current.id, parseTags(current.tags), parseTags(changes.tags));
      const detail = await detailIn(tx, current.workspace_id, current.id);
      await recordUpdated(work, detail, previousOf(toIssueBase(current), changes), current.workspace_id);
      if ('title' in changes || 'description' in changes) indexAfterCommit(work, next);
      return detail;
    },

    /** Marks the product's listed issues released (those not released yet), as a release ships them; their locks are held. */
    async release(work: Work, workspaceId: string, productId: string, ids: readonly string[], now: string): Promise<void> {
      if (ids.length === 0) return;
      requireLocked(work, ids);
      const { tx } = work;
      await lockProductIssues(tx, productId);
      // Released issues stop being duplicate candidates.
      const before = await issues.markReleased(workspaceId, ids, now, () => embeddings.bumpProductVersion(workspaceId, productId, tx), tx);
      if (before.length === 0) return;
      // A handful of statements however many issues ship: their details in one query, their
      // events (one per issue, in the order they were marked) in one insert.
      const found = await issues.findDetails(workspaceId, before.map(({ id }) => id), tx);
      const details = new Map(found.map((rows) => [rows.issue.id, toIssueDetail(rows)]));
      await outbox.record(work, ...before.map(({ id, status, updated_at }) => updatedEvent(details.get(id)!, { status, updated_at }, workspaceId)));
    },

    async link(work: Work, workspaceId: string, issueId: string, link: ConversationLink): Promise<IssueDetail> {
      await endSuggestions(work, workspaceId, link);
      return relink(work, workspaceId, issueId, (tx) => issues.link(workspaceId, issueId, link.conversationId, clock.now(), tx));
    },

    unlink: (work: Work, workspaceId: string, issueId: string, conversationId: string): Promise<IssueDetail> =>
      relink(work, workspaceId, issueId, (tx) => issues.unlink(workspaceId, issueId, conversationId, tx)),
  };
}

export type IssueWrites = ReturnType<typeof createIssueWrites>;
