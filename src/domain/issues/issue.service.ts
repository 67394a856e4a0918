// Issues: shortcode numbering, assignee and product references, PATCH semantics, filters and
// conversation links — all scoped to the caller's workspace.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { IssueChanges, IssueFilters, IssueRepository, IssueRow } from '../../db/repositories/issue.repository.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import { checkAll, invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { resolveMemberRef, type MemberRef } from '../accounts/member-ref.js';
import { updateUnderLock } from '../shared/changes.js';
import { normalizeTags } from '../tags/tags.js';
import type { IssueStatus, Priority } from '../shared/enums.js';
import { issueKeyOf } from './issue-refs.js';
import { toIssueDetail, toIssueListItem, type IssueDetail, type IssueListItem } from './issue.shapes.js';
import { issueLock, type IssueWrites, type NewIssue } from './issue.writes.js';
import { inTransaction } from '../shared/unit-of-work.js';

export type { IssueDetail, IssueListItem } from './issue.shapes.js';

/** `me`, a member id, or null (unassigned). */
export type AssigneeRef = MemberRef;

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
  tags?: string[];
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
  /** [ext] Issues carrying any of these tags (lowercase keys). */
  tagKeys?: string[];
}

/** Conversation lookups the issue rules need (implemented by the conversation repository). */
export interface ConversationLookup {
  findIdsInWorkspace(workspaceId: string, ids: readonly string[], tx?: Executor): Promise<{ id: string; product_id: string }[]>;
}

/** "" and null both clear an optional text. */
const clearable = (value: string | null): string | null => (value === '' ? null : value);

/** What the issue writes need to create the issue a create call asks for. */
export const newIssueOf = (
  actor: Actor,
  input: CreateIssueInput,
  product: { id: string; issue_prefix: string },
  assigneeId: string | null,
): NewIssue => ({
  workspaceId: actor.workspaceId,
  productId: product.id,
  prefix: product.issue_prefix,
  title: input.title,
  description: clearable(input.description ?? null),
  status: input.status ?? 'pending',
  priority: input.priority ?? 'normal',
  assigneeId,
});

export interface IssueServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  issues: IssueRepository;
  products: Pick<ProductRepository, 'findById'>;
  members: Pick<MemberRepository, 'findById'>;
  conversations: ConversationLookup;
  /** The one path every issue write takes. */
  writes: IssueWrites;
  clock: Clock;
}

export function createIssueService({ db, dialect, issues, products, members, conversations, writes, clock }: IssueServiceDeps) {
  async function find(actor: Actor, idOrShortcode: string, tx: Executor = db): Promise<IssueRow> {
    const key = issueKeyOf(idOrShortcode);
    const row = !key
      ? undefined
      : 'id' in key
        ? await issues.findById(actor.workspaceId, key.id, tx)
        : await issues.findByShortcode(actor.workspaceId, key.shortcode, tx);
    if (!row) throw notFound('issue');
    return row;
  }

  async function detailOf(actor: Actor, idOrShortcode: string, tx: Executor = db): Promise<IssueDetail> {
    const key = issueKeyOf(idOrShortcode);
    const found = key ? await issues.findDetail(actor.workspaceId, key, tx) : undefined;
    if (!found) throw notFound('issue');
    return toIssueDetail(found);
  }

  /** The issue's detail as committed now. */
  const detail = (actor: Actor, row: Pick<IssueRow, 'id'>, tx: Executor = db): Promise<IssueDetail> => detailOf(actor, row.id, tx);

  /** The member id an assignee reference names, checked against the workspace. */
  const resolveAssignee = (actor: Actor, ref: AssigneeRef, field = 'assignee_id'): Promise<string | null> =>
    resolveMemberRef(members, actor, ref, field);

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
        tagKeys: filters.tagKeys,
      };
      const { rows, total } = await issues.list(actor.workspaceId, query, page);
      return { rows: rows.map(toIssueListItem), total };
    },

    async create(actor: Actor, input: CreateIssueInput): Promise<IssueDetail> {
      const [product, assigneeId] = await checkAll([
        () => requireProduct(actor, input.product_id),
        () => resolveAssignee(actor, input.assignee_id ?? null),
      ] as const);
      const { detail } = await inTransaction(db, (work) => writes.create(work, newIssueOf(actor, input, product, assigneeId)));
      return detail;
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
      if (input.tags !== undefined) wanted.tags = JSON.stringify(normalizeTags(input.tags));

      let updated: IssueDetail | null = null;
      const { current } = await updateUnderLock({ db, dialect, clock }, {
        lockKey: issueLock(id),
        read: (tx) => find(actor, id, tx),
        wanted,
        write: async (work, current, changes) => {
          updated = await writes.update(work, current, changes);
        },
      });
      return updated ?? detail(actor, current);
    },

    async linkConversation(actor: Actor, idOrShortcode: string, conversationId: string): Promise<IssueDetail> {
      const issue = await find(actor, idOrShortcode);
      const id = await requireConversationOfProduct(actor, conversationId, issue.product_id);
      return inTransaction(db, (work) => writes.link(work, actor.workspaceId, issue.id, { conversationId: id }));
    },

    async unlinkConversation(actor: Actor, idOrShortcode: string, conversationId: string): Promise<IssueDetail> {
      const issue = await find(actor, idOrShortcode);
      const id = parseUuid(conversationId);
      const [conversation] = id ? await conversations.findIdsInWorkspace(actor.workspaceId, [id]) : [];
      if (!conversation) throw notFound('conversation');
      return inTransaction(db, (work) => writes.unlink(work, actor.workspaceId, issue.id, conversation.id));
    },
  };
  return service;
}

export type IssueService = ReturnType<typeof createIssueService>;
