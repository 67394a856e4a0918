// Releases: creating one links its issues and marks them released in the same transaction; any
// issue id that is not an issue of the release's product rejects the whole request. This service
// is the one writer of releases: every write records its event here (release.published when a
// release goes from draft, or nothing, to a date).
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { IssueRepository } from '../../db/repositories/issue.repository.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import type { ReleaseChanges, ReleaseIssueRow, ReleaseRepository, ReleaseViewRow } from '../../db/repositories/release.repository.js';
import { invalidField, notFound } from '../../errors.js';
import { canonicalInstant } from '../shared/instants.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import type { DomainEvent } from '../../events/event-types.js';
import type { Outbox } from '../../events/outbox.js';
import { previousOf, updateUnderLock } from '../shared/changes.js';
import type { IssueStatus, Priority } from '../shared/enums.js';
import { findIssuesByRefs } from '../issues/issue-refs.js';
import type { IssueWrites } from '../issues/issue.writes.js';
import { inTransaction, type Work } from '../shared/unit-of-work.js';

export interface Release {
  id: string;
  workspace_id: string;
  product_id: string;
  title: string;
  description: string | null;
  version: string | null;
  released_at: string | null;
  created_at: string;
  updated_at: string;
  product: { id: string; name: string };
  linked_issues_count: number;
}

export interface ReleaseIssue {
  id: string;
  title: string;
  status: IssueStatus;
  priority: Priority;
}

export type ReleaseDetail = Release & { issues: ReleaseIssue[] };

export interface CreateReleaseInput {
  product_id: string;
  title: string;
  description?: string | null;
  version?: string | null;
  issue_ids?: string[];
  /** Omitted: published now; null: a draft. */
  released_at?: string | null;
}

export type UpdateReleaseInput = Partial<Pick<CreateReleaseInput, 'title' | 'description' | 'version' | 'released_at'>>;

const toRelease = ({ product_name, ...row }: ReleaseViewRow): Release => ({
  id: row.id,
  workspace_id: row.workspace_id,
  product_id: row.product_id,
  title: row.title,
  description: row.description,
  version: row.version,
  released_at: row.released_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
  product: { id: row.product_id, name: product_name },
  linked_issues_count: row.linked_issues_count,
});

const toReleaseIssue = (row: ReleaseIssueRow): ReleaseIssue => ({
  ...row,
  status: row.status as IssueStatus,
  priority: row.priority as Priority,
});

/** A release's released_at, canonical; null (a draft) stays null. */
const canonicalTime = (value: string | null): string | null => (value === null ? null : canonicalInstant('released_at', value));

export interface ReleaseServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  releases: ReleaseRepository;
  issues: Pick<IssueRepository, 'findManyByIds' | 'findManyByShortcodes'>;
  issueWrites: Pick<IssueWrites, 'lock' | 'release'>;
  products: Pick<ProductRepository, 'findById'>;
  outbox: Outbox;
  clock: Clock;
}

export function createReleaseService({ db, dialect, releases, issues, issueWrites, products, outbox, clock }: ReleaseServiceDeps) {
  async function find(actor: Actor, id: string, tx: Executor = db): Promise<ReleaseViewRow> {
    const releaseId = parseUuid(id);
    const row = releaseId ? await releases.findById(actor.workspaceId, releaseId, tx) : undefined;
    if (!row) throw notFound('release');
    return row;
  }

  async function detail(actor: Actor, row: ReleaseViewRow, tx: Executor = db): Promise<ReleaseDetail> {
    const linked = await releases.issuesOf(actor.workspaceId, row.id, tx);
    return { ...toRelease(row), issues: linked.map(toReleaseIssue) };
  }

  /**
   * Records the release's event — created, or updated with the changed fields' `previous` values —
   * and release.published when it has just gained a date (created published, or a draft dated).
   */
  async function recordEvents(work: Work, actor: Actor, id: string, previous: Partial<Release> | null): Promise<ReleaseDetail> {
    const data = await detail(actor, await find(actor, id, work.tx), work.tx);
    const event = { workspaceId: actor.workspaceId, data };
    const recorded: DomainEvent[] = [previous ? { ...event, type: 'release.updated', previous } : { ...event, type: 'release.created' }];
    const wasUnpublished = previous === null || previous.released_at === null;
    if (data.released_at !== null && wasUnpublished) recorded.push({ ...event, type: 'release.published' });
    await outbox.record(work, ...recorded);
    return data;
  }

  return {
    find,

    async get(actor: Actor, id: string): Promise<ReleaseDetail> {
      return detail(actor, await find(actor, id));
    },

    async list(actor: Actor, filters: { productId?: string }, page: Page): Promise<PageOf<Release>> {
      const { rows, total } = await releases.list(actor.workspaceId, filters, page);
      return { rows: rows.map(toRelease), total };
    },

    async create(actor: Actor, input: CreateReleaseInput): Promise<ReleaseDetail> {
      const productId = parseUuid(input.product_id);
      const product = productId ? await products.findById(actor.workspaceId, productId) : undefined;
      if (!product) throw invalidField('product_id', 'is not a product of this workspace');

      const references = [...new Set(input.issue_ids ?? [])];
      const found = await findIssuesByRefs(issues, actor.workspaceId, references);
      const strangers = references.filter((reference) => found.get(reference)?.product_id !== product.id);
      if (strangers.length > 0) {
        throw invalidField('issue_ids', `not issues of this release's product: ${strangers.join(', ')}`);
      }
      // An issue named twice (by id and shortcode, or in two cases) is one issue.
      const issueIds = [...new Set([...found.values()].map((issue) => issue.id))];

      const id = newId();
      return inTransaction(db, async (work) => {
        const { tx } = work;
        const now = await issueWrites.lock(work, issueIds);
        await releases.insert(
          {
            id,
            workspace_id: actor.workspaceId,
            product_id: product.id,
            title: input.title,
            description: input.description ?? null,
            version: input.version ?? null,
            released_at: input.released_at === undefined ? now : canonicalTime(input.released_at),
            created_at: now,
            updated_at: now,
          },
          tx,
        );
        await releases.linkIssues(actor.workspaceId, id, issueIds, now, tx);
        await issueWrites.release(work, actor.workspaceId, product.id, issueIds, now);
        return recordEvents(work, actor, id, null);
      });
    },

    async update(actor: Actor, id: string, input: UpdateReleaseInput): Promise<ReleaseDetail> {
      const { id: releaseId } = await find(actor, id);
      const wanted: ReleaseChanges = {};
      if (input.title !== undefined) wanted.title = input.title;
      if (input.description !== undefined) wanted.description = input.description;
      if (input.version !== undefined) wanted.version = input.version;
      if (input.released_at !== undefined) wanted.released_at = canonicalTime(input.released_at);
      let updated: ReleaseDetail | null = null;
      const { current } = await updateUnderLock({ db, dialect, clock }, {
        lockKey: `release:${releaseId}`,
        read: (tx) => find(actor, releaseId, tx),
        wanted,
        write: async (work, current, changes) => {
          await releases.update(actor.workspaceId, current.id, changes, work.tx);
          updated = await recordEvents(work, actor, current.id, previousOf(toRelease(current), changes));
        },
      });
      return updated ?? detail(actor, current);
    },
  };
}

export type ReleaseService = ReturnType<typeof createReleaseService>;
