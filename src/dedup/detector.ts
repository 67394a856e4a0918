// The duplicate detector the issue service calls for `POST /issues/maybe`, and what every
// matcher (lexical, local embeddings, OpenAI-compatible embeddings) implements.
//
// How the issue service uses it:
//   1. `prepare(report)` before the transaction, with no lock held: the slow part (embedding
//      the report) happens here.
//      Then, still before the transaction, `warm(prepared, scope)` when the detector has it: what
//      `decide` will read for the product is made ready there (the lexical matcher's first index of
//      a product, built a slice at a time; the embedding matchers' vectors of its candidates,
//      embedded where missing), not in the transaction.
//   2. In the create transaction, after `dialect.lockKeyInTransaction(tx, <product key>)`:
//      read the product's dedup version and call `decide(prepared, { workspaceId, productId,
//      version, candidates }, tx)`, where `candidates` reads the product's pending, in_progress
//      and icebox issues when called (a detector whose cache is at `version` need not call it).
//      A non-null `issueId` is the existing issue to return; otherwise create the issue (and
//      show `possible`, the candidates of the review band). Record `score` and the prepared
//      report's `detector` in issue_api_sources. A DetectionError means nothing may be
//      written.
//   3. Every transaction that creates an issue or changes an issue's title, description,
//      status or product calls `bumpProductVersion(workspaceId, productId, tx)`
//      (src/db/repositories/embedding.repository.ts).
//      The same transaction stamps each issue it wrote with the version it moved the product to
//      (issues.dedup_version), which `changedSince` reads.
//   4. After such a transaction commits with a new text, call `indexIssue(issue)`; it never
//      rejects (failures are logged, and `warm` or `decide` embeds any missing vector). After the
//      transaction of step 2 created the issue, also call `created(issue)` with the version it
//      committed, so an in-memory index can take the issue in without reading the candidates.
import type { Executor } from '../db/repositories/executor.js';
import type { Embedder } from './embedding-detector.js';

export interface IssueText {
  title: string;
  description: string | null;
}

export interface Candidate extends IssueText {
  id: string;
  /** Creation time (ISO 8601), when the reader has it; candidates are ordered by (createdAt, id). */
  createdAt?: string;
}

export interface IndexedIssue extends Candidate {
  workspaceId: string;
  productId: string;
}

export interface DetectionScope {
  workspaceId: string;
  productId: string;
  /** The product's dedup version, read in the create transaction; absent outside a database. */
  version?: number;
  /** The product's pending, in_progress and icebox issues, oldest first; or a function reading them. */
  candidates: readonly Candidate[] | (() => Promise<readonly Candidate[]>);
  /**
   * The product's issues whose creation or change of title, description or status committed a
   * version after the one given: how a copy of the candidates at that version catches up without
   * reading them all. Absent outside a database.
   */
  changedSince?: (version: number) => Promise<readonly CandidateChange[]>;
}

/** An issue as its last dedup-relevant write left it: a candidate now (`open`), or no longer. */
export interface CandidateChange extends Candidate {
  createdAt: string;
  open: boolean;
}

export const candidatesOf = async (scope: DetectionScope): Promise<readonly Candidate[]> =>
  typeof scope.candidates === 'function' ? scope.candidates() : scope.candidates;

/** An issue POST /issues/maybe just created, as committed. */
export interface CreatedIssue extends IndexedIssue {
  createdAt: string;
  /** Whether its status makes it a candidate (pending, in_progress or icebox). */
  open: boolean;
  /** The product's dedup version its transaction committed (that transaction bumped it once). */
  version: number;
}

/** A candidate that came close to the report without reaching the auto-link threshold. */
export interface PossibleDuplicate {
  issueId: string;
  score: number;
}

export interface Decision {
  /** The existing issue the report duplicates, or null to create a new one. */
  issueId: string | null;
  /** Similarity of the best candidate (0..1), matched or not; null when there were no candidates. */
  score: number | null;
  /** When nothing matched: the best candidates in the review band, best first (at most POSSIBLE_DUPLICATES); absent means none. */
  possible?: readonly PossibleDuplicate[];
  /**
   * The best candidates whatever their score, best first (at most SHORTLIST): what triage's pair
   * classifier decides among. Absent when the matcher does not rank (an LLM judge decides).
   */
  shortlist?: readonly ShortlistedCandidate[];
}

/** A candidate of the shortlist: its score, and an embedding matcher's cosine (the score without its bonus). */
export interface ShortlistedCandidate extends PossibleDuplicate {
  cosine?: number;
}

/** The result of `prepare`; only the detector that made it reads its contents. */
export interface PreparedReport {
  readonly text: string;
  /** The name of the matcher that prepared it, and so decides it (recorded with the decision). */
  readonly detector: string;
}

/** What `warm` may read, outside any transaction: the product's dedup version, then its candidates. */
export interface WarmScope {
  workspaceId: string;
  productId: string;
  version(): Promise<number>;
  candidates(): Promise<readonly Candidate[]>;
}

export interface DuplicateDetector {
  /** Recorded as issue_api_sources.detector and reported by GET /readyz, e.g. `local:Xenova/multilingual-e5-small`. */
  readonly name: string;
  /** Similarity at or above which the best candidate is matched (an LLM judge, when configured, decides instead). */
  readonly threshold: number;
  /** The model that turns texts into vectors, when the matcher has one (summaries rank sentences with it too). */
  readonly embedder?: Embedder;
  /** Slow work with no lock held (embedding the report). Throws DetectionError. */
  prepare(report: IssueText): Promise<PreparedReport>;
  /** After `prepare`, with no lock held: readies what `decide` will read for the scope's product (optional). */
  warm?(prepared: PreparedReport, scope: WarmScope): Promise<void>;
  /** Runs inside the create transaction; no model call when the candidates' vectors are stored. Throws DetectionError. */
  decide(prepared: PreparedReport, scope: DetectionScope, tx?: Executor): Promise<Decision>;
  /** Stores the vector of an issue whose text was just committed. Never rejects. */
  indexIssue(issue: IndexedIssue): Promise<void>;
  /** Takes in an issue POST /issues/maybe created, after its transaction committed (optional). */
  created?(issue: CreatedIssue): void;
  /** Releases the model worker, if any. */
  close(): Promise<void>;
}

/** Any failure to reach a decision: missing model, provider down, timeout, malformed answer. */
export class DetectionError extends Error {
  override readonly name = 'DetectionError';
}

export interface DedupLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}
