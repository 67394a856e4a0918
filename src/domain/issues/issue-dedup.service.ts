// The deduplicating create (POST /issues/maybe): returns the open issue a report duplicates, or
// creates one, and records the call as a source of the returned issue — all in one transaction,
// serialized per product so racing identical reports never create two issues.
import type { Db } from '../../db/database.js';
import type { IssueRepository, IssueRow } from '../../db/repositories/issue.repository.js';
import { checkAll } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { newIssueOf, type CreateIssueInput, type IssueDetail, type IssueService } from './issue.service.js';
import type { IssueMatcher } from './issue-matcher.js';
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
  issues: Pick<IssueRepository, 'insertSource'>;
  issueService: Pick<IssueService, 'requireProduct' | 'resolveAssignee' | 'requireConversationOfProduct' | 'detail'>;
  issueWrites: Pick<IssueWrites, 'create' | 'link' | 'endSuggestions'>;
  matcher: IssueMatcher;
  clock: Clock;
  /** Hears how long each decision took, the model's work included (GET /metrics). */
  observeDedupSeconds?: (seconds: number) => void;
}

const DETECTION_FAILED =
  'duplicate detection failed; nothing was written. Retry, or use POST /api/v1/issues to create the issue without detection';

export function createIssueDedupService({ db, issues, issueService, issueWrites, matcher, clock, observeDedupSeconds = () => {} }: IssueDedupServiceDeps) {
  return {
    /** The active matcher, as GET /readyz reports it (the `auto` matcher changes once its model loads). */
    get detectorName() {
      return matcher.name;
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
      const prepared = await matcher.prepare(report, actor.workspaceId, product.id, DETECTION_FAILED);

      const outcome = await inTransaction(db, async (work) => {
        const { tx } = work;
        // Before the dedup lock, as a triage run of the conversation takes them.
        if (conversationId) await issueWrites.endSuggestions(work, actor.workspaceId, { conversationId });
        const match = await matcher.match(tx, actor.workspaceId, product.id, prepared, DETECTION_FAILED);
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
              matched_existing: match.matched ? 1 : 0,
              score: match.score,
              detector: prepared.detector,
              origin: 'maybe',
              created_at: clock.now(),
            },
            tx,
          );
        if (match.matched) {
          const row = match.matched;
          await recordSource(row);
          if (conversationId) await issueWrites.link(work, actor.workspaceId, row.id, { conversationId });
          return { row, detail: null, matchedExisting: true, apiSourceId, possibleDuplicates: [], score: match.score };
        }
        const { row, detail, dedupVersion } = await issueWrites.create(work, newIssueOf(actor, input, product, assigneeId), {
          alongside: recordSource,
          link: conversationId ? { conversationId } : undefined,
        });
        matcher.created(work, row, dedupVersion);
        const possibleDuplicates = match.possible.map(({ issue, score }) => ({ id: issue.id, shortcode: issue.shortcode, title: issue.title, score }));
        return { row, detail, matchedExisting: false, apiSourceId, possibleDuplicates, score: match.score };
      });

      return {
        // A created issue as its transaction wrote it (its event's detail); a matched one read once committed, this call among its sources.
        issue: outcome.detail ?? (await issueService.detail(actor, outcome.row)),
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
