// The deduplicating create (POST /issues/maybe): returns the open issue a report duplicates, or
// creates one, and records the call as a source of the returned issue — all in one transaction,
// serialized per product so racing identical reports never create two issues.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import { CANDIDATE_STATUSES, type EmbeddingRepository } from '../../db/repositories/embedding.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { IssueRepository, IssueRow } from '../../db/repositories/issue.repository.js';
import { DetectionError, type DetectionScope, type DuplicateDetector, type PossibleDuplicate } from '../../dedup/detector.js';
import { AppError, checkAll } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { newIssueOf, type CreateIssueInput, type IssueDetail, type IssueService } from './issue.service.js';
import type { IssueWrites } from './issue.writes.js';
import { inTransaction } from '../shared/unit-of-work.js';

export interface MaybeCreateInput extends CreateIssueInput {
  /** [ext] A conversation of the product to link to the returned issue. */
  conversation_id?: string;
}

/** [ext] An open issue that came close to the report (the review band). */
export interface PossibleDuplicateIssue {
  id: string;
  shortcode: string;
  title: string;
  score: number;
}

export interface MaybeCreateResult {
  issue: IssueDetail;
  matchedExisting: boolean;
  apiSourceId: string;
  /** [ext] The best candidate's similarity, matched or not; null when the product had no open issue. */
  score: number | null;
  /** [ext] The matcher that decided, as recorded in issue_api_sources. */
  detector: string;
  /** [ext] When an issue was created: the open issues of the review band, best first. */
  possibleDuplicates: PossibleDuplicateIssue[];
}

export interface IssueDedupServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  issues: Pick<IssueRepository, 'findById' | 'insertSource' | 'link'>;
  issueService: Pick<IssueService, 'requireProduct' | 'resolveAssignee' | 'requireConversationOfProduct' | 'detail'>;
  issueWrites: Pick<IssueWrites, 'create' | 'link'>;
  detector: Pick<DuplicateDetector, 'name' | 'prepare' | 'decide' | 'created'>;
  /** The product's dedup version and candidates. */
  dedupStore: Pick<EmbeddingRepository, 'productVersion' | 'openCandidates'>;
  clock: Clock;
  /** Hears how long each decision took, the model's work included (GET /metrics). */
  observeDedupSeconds?: (seconds: number) => void;
}

/** Turns any detector failure into the contract's 500, keeping the cause for the log. */
async function detecting<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const failure = new AppError(
      'internal_error',
      'duplicate detection failed; nothing was written. Retry, or use POST /api/v1/issues to create the issue without detection',
    );
    failure.cause = error instanceof DetectionError ? error : new DetectionError(String((error as Error)?.message ?? error));
    throw failure;
  }
}

export function createIssueDedupService({
  db, dialect, issues, issueService, issueWrites, detector, dedupStore, clock, observeDedupSeconds = () => {},
}: IssueDedupServiceDeps) {
  // Under the product lock: the version now (cheap), the candidates only if the detector asks.
  const scopeOf = async (workspaceId: string, productId: string, tx: Executor): Promise<DetectionScope> => ({
    workspaceId,
    productId,
    version: await dedupStore.productVersion(workspaceId, productId, tx),
    candidates: () => dedupStore.openCandidates(workspaceId, productId, tx),
  });

  // The candidates of the review band, as the answer shows them (read in the decision's transaction).
  const possibleIssues = async (workspaceId: string, possible: readonly PossibleDuplicate[], tx: Executor): Promise<PossibleDuplicateIssue[]> => {
    const found: PossibleDuplicateIssue[] = [];
    for (const { issueId, score } of possible) {
      const row = await issues.findById(workspaceId, issueId, tx);
      if (row) found.push({ id: row.id, shortcode: row.shortcode, title: row.title, score });
    }
    return found;
  };

  // After the commit: the detector may take the new issue in without reading the candidates.
  const announce = (row: IssueRow, version: number) =>
    detector.created?.({
      id: row.id, workspaceId: row.workspace_id, productId: row.product_id, title: row.title, description: row.description,
      createdAt: row.created_at, open: CANDIDATE_STATUSES.includes(row.status), version,
    });

  return {
    /** The active matcher, as GET /readyz reports it (the `auto` matcher changes once its model loads). */
    get detectorName() {
      return detector.name;
    },

    async createMaybe(actor: Actor, input: MaybeCreateInput): Promise<MaybeCreateResult> {
      const [product, assigneeId] = await checkAll([
        () => issueService.requireProduct(actor, input.product_id),
        () => issueService.resolveAssignee(actor, input.assignee_id ?? null),
      ] as const);
      const conversationId =
        input.conversation_id === undefined
          ? null
          : await issueService.requireConversationOfProduct(actor, input.conversation_id, product.id);
      const report = { title: input.title, description: input.description || null };
      const detectionStarted = performance.now();
      const prepared = await detecting(() => detector.prepare(report));

      const outcome = await inTransaction(db, async (work) => {
        const { tx } = work;
        await dialect.lockKeyInTransaction(tx, `dedup:${product.id}`);
        const scope = await scopeOf(actor.workspaceId, product.id, tx);
        const decision = await detecting(() => detector.decide(prepared, scope, tx));
        observeDedupSeconds((performance.now() - detectionStarted) / 1000);
        const apiSourceId = newId();
        const recordSource = (row: IssueRow) =>
          issues.insertSource(
            {
              id: apiSourceId,
              workspace_id: actor.workspaceId,
              issue_id: row.id,
              api_key_id: actor.apiKeyId,
              member_id: actor.member?.id ?? null,
              title: report.title,
              description: report.description,
              matched_existing: decision.issueId ? 1 : 0,
              score: decision.score,
              detector: prepared.detector,
              created_at: clock.now(),
            },
            tx,
          );
        if (decision.issueId) {
          const row = await issues.findById(actor.workspaceId, decision.issueId, tx);
          if (!row) throw new Error(`detector matched ${decision.issueId}, which is not an open issue of the product`);
          await recordSource(row);
          if (conversationId) await issueWrites.link(work, actor.workspaceId, row.id, conversationId);
          return { row, matchedExisting: true, apiSourceId, committedVersion: null, score: decision.score, possibleDuplicates: [] };
        }
        const { row } = await issueWrites.create(work, newIssueOf(actor, input, product, assigneeId), async (created) => {
          await recordSource(created);
          if (conversationId) await issues.link(actor.workspaceId, created.id, conversationId, clock.now(), tx);
        });
        const committedVersion = detector.created ? await dedupStore.productVersion(actor.workspaceId, product.id, tx) : null;
        const possibleDuplicates = await possibleIssues(actor.workspaceId, decision.possible ?? [], tx);
        return { row, matchedExisting: false, apiSourceId, committedVersion, score: decision.score, possibleDuplicates };
      });

      const { row, committedVersion } = outcome;
      if (committedVersion !== null) announce(row, committedVersion);
      return {
        issue: await issueService.detail(actor, row),
        matchedExisting: outcome.matchedExisting,
        apiSourceId: outcome.apiSourceId,
        score: outcome.score,
        detector: prepared.detector,
        possibleDuplicates: outcome.possibleDuplicates,
      };
    },
  };
}

export type IssueDedupService = ReturnType<typeof createIssueDedupService>;
