// Matching a report against a product's open issues: what the deduplicating create
// (POST /issues/maybe) and triage both do, with the same detector, thresholds and review band.
// The slow part (embedding the report) runs with no lock held; the decision runs in the caller's
// transaction under the product's dedup lock, so it sees every issue committed before it and
// nobody creates one between the decision and the caller's writes.
import type { Dialect } from '../../db/dialect.js';
import { CANDIDATE_STATUSES, type EmbeddingRepository } from '../../db/repositories/embedding.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { IssueRepository, IssueRow } from '../../db/repositories/issue.repository.js';
import { DetectionError, type DuplicateDetector, type IssueText, type PreparedReport } from '../../dedup/detector.js';
import { AppError } from '../../errors.js';
import type { Work } from '../shared/unit-of-work.js';

/** An open issue of the review band, with its similarity to the report. */
export interface ScoredIssue {
  issue: IssueRow;
  score: number;
}

export interface Match {
  /** The open issue the report duplicates (at or above the auto-link threshold), or null. */
  matched: IssueRow | null;
  /** The best candidate's similarity, matched or not; null when the product had no open issue. */
  score: number | null;
  /** When nothing matched: the open issues of the review band, best first (at most POSSIBLE_DUPLICATES). */
  possible: ScoredIssue[];
  /** The best candidates whatever their score, best first (at most SHORTLIST; none with an LLM judge): what triage's pair classifier decides among. */
  shortlist: ShortlistedIssue[];
}

/** A candidate of the shortlist, with an embedding matcher's cosine. */
export interface ShortlistedIssue extends ScoredIssue {
  cosine?: number;
}

export interface IssueMatcherDeps {
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  issues: Pick<IssueRepository, 'findManyByIds'>;
  detector: Pick<DuplicateDetector, 'name' | 'prepare' | 'warm' | 'decide' | 'created'>;
  /** The product's dedup version and candidates. */
  dedupStore: Pick<EmbeddingRepository, 'productVersion' | 'openCandidates' | 'changedSince'>;
}

/** Runs detector work, turning any failure into the contract's 500 (`detail` says what was not done), keeping the cause for the log. */
async function detecting<T>(detail: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const failure = new AppError('internal_error', detail);
    failure.cause = error instanceof DetectionError ? error : new DetectionError(String((error as Error)?.message ?? error));
    throw failure;
  }
}

export function createIssueMatcher({ dialect, issues, detector, dedupStore }: IssueMatcherDeps) {
  return {
    /** The active matcher, as GET /readyz reports it (the `auto` matcher changes once its model loads). */
    get name() {
      return detector.name;
    },

    /**
     * Before the transaction, with no lock held: the report prepared, and the detector readied for
     * the product (a lexical index built, missing vectors embedded, here rather than in the
     * transaction). `failure`: the 500's detail when detection fails.
     */
    prepare: (report: IssueText, workspaceId: string, productId: string, failure: string): Promise<PreparedReport> =>
      detecting(failure, async () => {
        const prepared = await detector.prepare(report);
        await detector.warm?.(prepared, {
          workspaceId,
          productId,
          version: () => dedupStore.productVersion(workspaceId, productId),
          candidates: () => dedupStore.openCandidates(workspaceId, productId),
        });
        return prepared;
      }),

    /** In the caller's transaction: takes the product's dedup lock and decides. */
    async match(tx: Executor, workspaceId: string, productId: string, prepared: PreparedReport, failure: string): Promise<Match> {
      await dialect.lockKeyInTransaction(tx, `dedup:${productId}`);
      const scope = {
        workspaceId,
        productId,
        version: await dedupStore.productVersion(workspaceId, productId, tx),
        candidates: () => dedupStore.openCandidates(workspaceId, productId, tx),
        changedSince: (version: number) => dedupStore.changedSince(workspaceId, productId, version, tx),
      };
      const decision = await detecting(failure, () => detector.decide(prepared, scope, tx));
      // The issues the decision names, in one read (the dedup lock is held).
      const shortlist = decision.shortlist ?? [];
      const named = [...(decision.issueId ? [decision.issueId] : []), ...[...(decision.possible ?? []), ...shortlist].map(({ issueId }) => issueId)];
      const rows = new Map((await issues.findManyByIds(workspaceId, named, tx)).map((row) => [row.id, row]));
      const read = (id: string) => {
        const row = rows.get(id);
        if (!row) throw new Error(`the detector named ${id}, which is not an open issue of the product`);
        return row;
      };
      const possible = (decision.possible ?? []).map(({ issueId, score }): ScoredIssue => ({ issue: read(issueId), score }));
      return {
        matched: decision.issueId ? read(decision.issueId) : null, score: decision.score, possible,
        shortlist: shortlist.map(({ issueId, score, cosine }) => ({ issue: read(issueId), score, ...(cosine === undefined ? {} : { cosine }) })),
      };
    },

    /**
     * After an issue was created in the transaction that matched: once committed, the detector may
     * take it in without reading the candidates again, at the dedup version its creation wrote.
     */
    created(work: Work, row: IssueRow, version: number): void {
      if (!detector.created) return;
      work.afterCommit(() => detector.created?.({
        id: row.id, workspaceId: row.workspace_id, productId: row.product_id, title: row.title, description: row.description,
        createdAt: row.created_at, open: CANDIDATE_STATUSES.includes(row.status), version,
      }));
    },
  };
}

export type IssueMatcher = ReturnType<typeof createIssueMatcher>;
