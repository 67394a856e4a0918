// Issues: shortcode numbering, assignee and product references, PATCH semantics, filters and
// conversation links — all scoped to the caller's workspace.
import type { Db } from '../db/database.js';
import type { Dialect } from '../db/dialect.js';
import type { EmbeddingRepository } from '../db/repositories/embedding.repository.js';
import type { DuplicateDetector } from '../dedup/detector.js';
import type { Executor, Page, PageOf } from '../db/repositories/executor.js';
import type { IssueChanges, IssueFilters, IssueKey, IssueRepository, IssueRow, LinkedConversationRow } from '../db/repositories/issue.repository.js';
import type { MemberRepository } from '../db/repositories/member.repository.js';
import type { ProductRepository } from '../db/repositories/product.repository.js';
import { checkAll, invalidField, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { newId, parseUuid } from '../lib/ids.js';
import type { Actor } from './actor.js';
import { updateUnderLock } from './changes.js';
import type { ConversationType, ConversationStatus, IssueStatus, Priority } from './enums.js';

export interface IssueBase {
  id: string;
  product_id: string;
  shortcode: string;
  title: string;
  description: string | null;
  status: IssueStatus;
  priority: Priority;
  assignee_id: string | null;
  resolution_comment: string | null;
  is_ai_generated: boolean;
  created_at: string;
  updated_at: string;
}

export interface ConversationSummary {
  id: string;
  title: string;
  type: ConversationType;
  status: ConversationStatus;
  priority: Priority;
  ai_summary: string | null;
  created_at: string;
}

export type IssueListItem = IssueBase & { linked_conversations_count: number; sources_count: number };
export type IssueDetail = IssueBase & { linked_conversations: ConversationSummary[]; sources_count: number };

/** `me`, a member id, or null (unassigned). */
export type AssigneeRef = string | null;

export interface CreateIssueInput {
  product_id: string;
  title: string;
  description?: string | null;
  status?: IssueStatus;
  priority?: Priority;
  assignee_id?: AssigneeRef;
}

export interface UpdateIssueInput {
  title?: string;
  description?: string | null;
  status?: IssueStatus;
  priority?: Priority;
  assignee_id?: AssigneeRef;
  resolution_comment?: string | null;
}

export interface IssueListFilters {
  productId?: string;
  statuses?: IssueStatus[];
  priorities?: Priority[];
  /** Member ids (well-formed UUIDs; one that names nothing simply matches nothing). */
  assigneeIds?: string[];
  /** [ext] the `me` value: the key's member. */
  assignedToMe?: boolean;
  /** The `none` value: unassigned issues. */
  unassigned?: boolean;
}

/** Conversation lookups the issue rules need (implemented by the conversation repository). */
export interface ConversationLookup {
  findIdsInWorkspace(workspaceId: string, ids: readonly string[], tx?: Executor): Promise<{ id: string; product_id: string }[]>;
}

const SHORTCODE = /^[A-Za-z0-9]{1,3}-[1-9][0-9]{0,15}$/;

const toIssueBase = (row: IssueRow): IssueBase => ({
  id: row.id,
  product_id: row.product_id,
  shortcode: row.shortcode,
  title: row.title,
  description: row.description,
  status: row.status as IssueStatus,
  priority: row.priority as Priority,
  assignee_id: row.assignee_id,
  resolution_comment: row.resolution_comment,
  is_ai_generated: row.is_ai_generated === 1,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const toSummary = ({ issue_id: _issueId, ...row }: LinkedConversationRow): ConversationSummary => ({
  ...row,
  type: row.type as ConversationType,
  status: row.status as ConversationStatus,
  priority: row.priority as Priority,
});

/** "" and null both clear an optional text. */
const clearable = (value: string | null): string | null => (value === '' ? null : value);

export interface IssueServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  issues: IssueRepository;
  products: Pick<ProductRepository, 'findById'>;
  members: Pick<MemberRepository, 'findById'>;
  conversations: ConversationLookup;
  embeddings: Pick<EmbeddingRepository, 'bumpProductVersion'>;
  detector: Pick<DuplicateDetector, 'indexIssue'>;
  clock: Clock;
}

/** Fields the issue counts behind pagination.total are kept by (issue_tallies). */
const TALLIED_FIELDS = ['status', 'priority', 'assignee_id'] as const;

/**
 * The lock every transaction takes before it creates issues of a product or changes their
 * tallied fields: on PostgreSQL, writers of one product then update its tally rows one at a
 * time, and never deadlock over them. (SQLite runs one transaction at a time anyway.)
 */
export const productIssuesLock = (productId: string) => `product-issues:${productId}`;

/** Fields whose change alters what duplicate detection compares against. */
const DEDUP_FIELDS = ['title', 'description', 'status'] as const;

export function createIssueService({ db, dialect, issues, products, members, conversations, embeddings, detector, clock }: IssueServiceDeps) {
  const lockProductIssues = (tx: Executor, productId: string) => dialect.lockKeyInTransaction(tx, productIssuesLock(productId));

  /** Stores the issue's vector after its text is committed; never rejects, never delays the response. */
  const index = (row: IssueRow) =>
    void detector.indexIssue({
      id: row.id, workspaceId: row.workspace_id, productId: row.product_id, title: row.title, description: row.description,
    });

  /** The id or (case-insensitive) shortcode a path names; undefined when it is neither. */
  function keyOf(idOrShortcode: string): IssueKey | undefined {
    const id = parseUuid(idOrShortcode);
    if (id) return { id };
    return SHORTCODE.test(idOrShortcode) ? { shortcode: idOrShortcode.toUpperCase() } : undefined;
  }

  async function find(actor: Actor, idOrShortcode: string, tx: Executor = db): Promise<IssueRow> {
    const key = keyOf(idOrShortcode);
    const row = !key
      ? undefined
      : 'id' in key
        ? await issues.findById(actor.workspaceId, key.id, tx)
        : await issues.findByShortcode(actor.workspaceId, key.shortcode, tx);
    if (!row) throw notFound('issue');
    return row;
  }

  async function detailOf(actor: Actor, idOrShortcode: string, tx: Executor = db): Promise<IssueDetail> {
    const key = keyOf(idOrShortcode);
    const found = key ? await issues.findDetail(actor.workspaceId, key, tx) : undefined;
    if (!found) throw notFound('issue');
    return { ...toIssueBase(found.issue), linked_conversations: found.linked.map(toSummary), sources_count: found.sources_count };
  }

  /** The issue's detail as committed now. */
  const detail = (actor: Actor, row: Pick<IssueRow, 'id'>, tx: Executor = db): Promise<IssueDetail> => detailOf(actor, row.id, tx);

  /** The member id an assignee reference names, checked against the workspace. */
  async function resolveAssignee(actor: Actor, ref: AssigneeRef, field = 'assignee_id'): Promise<string | null> {
    if (ref === null) return null;
    if (ref === 'me') {
      if (!actor.member) throw invalidField(field, '"me" needs an API key that belongs to a member');
      return actor.member.id;
    }
    const id = parseUuid(ref);
    if (!id || !(await members.findById(actor.workspaceId, id))) throw invalidField(field, 'is not a member of this workspace');
    return id;
  }

  async function requireProduct(actor: Actor, productId: string) {
    const id = parseUuid(productId);
    const product = id ? await products.findById(actor.workspaceId, id) : undefined;
    if (!product) throw invalidField('product_id', 'is not a product of this workspace');
    return product;
  }

  async function requireConversationOfProduct(actor: Actor, conversationId: string, productId: string, tx: Executor = db) {
    const id = parseUuid(conversationId);
    const [conversation] = id ? await conversations.findIdsInWorkspace(actor.workspaceId, [id], tx) : [];
    if (!conversation || conversation.product_id !== productId) {
      throw invalidField('conversation_id', 'is not a conversation of this issue\'s product');
    }
    return conversation.id;
  }

  const service = {
    find,
    detail,
    index,
    resolveAssignee,
    requireProduct,
    requireConversationOfProduct,

    get: (actor: Actor, idOrShortcode: string): Promise<IssueDetail> => detailOf(actor, idOrShortcode),

    async list(actor: Actor, filters: IssueListFilters, page: Page): Promise<PageOf<IssueListItem>> {
      const assigneeIds = [...(filters.assigneeIds ?? [])];
      if (filters.assignedToMe) assigneeIds.push((await resolveAssignee(actor, 'me'))!);
      const query: IssueFilters = {
        productId: filters.productId,
        statuses: filters.statuses,
        priorities: filters.priorities,
        assigneeIds,
        unassigned: filters.unassigned,
      };
      const { rows, total } = await issues.list(actor.workspaceId, query, page);
      return {
        rows: rows.map((row) => ({
          ...toIssueBase(row),
          linked_conversations_count: row.linked_conversations_count,
          sources_count: row.sources_count,
        })),
        total,
      };
    },

    /** Inserts an issue with the next shortcode of its product's prefix, inside `tx`. */
    async insertIssue(actor: Actor, input: CreateIssueInput & { assigneeId: string | null; prefix: string }, tx: Executor): Promise<IssueRow> {
      await lockProductIssues(tx, input.product_id);
      const number = await issues.nextNumber(actor.workspaceId, input.prefix, tx);
      await embeddings.bumpProductVersion(actor.workspaceId, input.product_id, tx);
      const now = clock.now();
      const row: IssueRow = {
        id: newId(),
        workspace_id: actor.workspaceId,
        product_id: input.product_id,
        shortcode: `${input.prefix}-${number}`,
        title: input.title,
        description: clearable(input.description ?? null),
        status: input.status ?? 'pending',
        priority: input.priority ?? 'normal',
        assignee_id: input.assigneeId,
        resolution_comment: null,
        is_ai_generated: 0,
        created_at: now,
        updated_at: now,
      };
      await issues.insert(row, tx);
      return row;
    },

    async create(actor: Actor, input: CreateIssueInput): Promise<IssueDetail> {
      const [product, assigneeId] = await checkAll([
        () => requireProduct(actor, input.product_id),
        () => resolveAssignee(actor, input.assignee_id ?? null),
      ] as const);
      const row = await db.transaction().execute((tx) =>
        service.insertIssue(actor, { ...input, product_id: product.id, assigneeId, prefix: product.issue_prefix }, tx),
      );
      index(row);
      return { ...toIssueBase(row), linked_conversations: [], sources_count: 0 };
    },

    async update(actor: Actor, idOrShortcode: string, input: UpdateIssueInput): Promise<IssueDetail> {
      const { id } = await find(actor, idOrShortcode);
      const wanted: IssueChanges = {};
      if (input.title !== undefined) wanted.title = input.title;
      if (input.description !== undefined) wanted.description = clearable(input.description);
      if (input.status !== undefined) wanted.status = input.status;
      if (input.priority !== undefined) wanted.priority = input.priority;
      if (input.assignee_id !== undefined) wanted.assignee_id = await resolveAssignee(actor, input.assignee_id);
      if (input.resolution_comment !== undefined) wanted.resolution_comment = clearable(input.resolution_comment);

      const { current, changes } = await updateUnderLock({ db, dialect, clock }, {
        lockKey: `issue:${id}`,
        read: (tx) => find(actor, id, tx),
        wanted,
        async write(tx, current, changes) {
          if (TALLIED_FIELDS.some((field) => field in changes)) await lockProductIssues(tx, current.product_id);
          await issues.update(current, { ...current, ...changes }, tx);
          if (DEDUP_FIELDS.some((field) => field in changes)) await embeddings.bumpProductVersion(actor.workspaceId, current.product_id, tx);
        },
      });
      if (changes && ('title' in changes || 'description' in changes)) index({ ...current, ...changes });
      return detail(actor, current);
    },

    async linkConversation(actor: Actor, idOrShortcode: string, conversationId: string): Promise<IssueDetail> {
      const issue = await find(actor, idOrShortcode);
      const id = await requireConversationOfProduct(actor, conversationId, issue.product_id);
      await issues.link(actor.workspaceId, issue.id, id, clock.now());
      return detail(actor, issue);
    },

    async unlinkConversation(actor: Actor, idOrShortcode: string, conversationId: string): Promise<IssueDetail> {
      const issue = await find(actor, idOrShortcode);
      const id = parseUuid(conversationId);
      const [conversation] = id ? await conversations.findIdsInWorkspace(actor.workspaceId, [id]) : [];
      if (!conversation) throw notFound('conversation');
      await issues.unlink(actor.workspaceId, issue.id, conversation.id);
      return detail(actor, issue);
    },
  };
  return service;
}

export type IssueService = ReturnType<typeof createIssueService>;
