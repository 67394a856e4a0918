// The triage evaluation's matching (`npm run eval:triage` and `train:triage`, docs/triage.md
// "Evaluation"): labelled pairs become one product's backlog and its conversations, and every
// conversation is matched as a triage run matches it, on a real database, with the matcher under
// test; what the pair classifier decides from the shortlists is cross-validated apart (cross-validation.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, type DatabaseHandle } from '../../../db/database.js';
import { evalDetector } from '../../../dedup/eval/eval-detector.js';
import type { Band } from '../../../dedup/thresholds.js';
import { embeddingRepository } from '../../../db/repositories/embedding.repository.js';
import { storeBacklogVectors } from '../../../dedup/backlog-vectors.js';
import { issueRepository } from '../../../db/repositories/issue.repository.js';
import type { DuplicateDetector } from '../../../dedup/detector.js';
import type { Pair } from '../../../dedup/eval/pairs.js';
import { issueText } from '../../../dedup/text.js';
import { createServices } from '../../../services.js';
import type { Actor } from '../../accounts/actor.js';
import { createIssueMatcher } from '../../issues/issue-matcher.js';
import { inTransaction } from '../../shared/unit-of-work.js';
import { titleFromBody } from '../../widget/visitor.shapes.js';
import { reportText } from '../classifier/features.js';
import type { ShortlistedText } from '../classifier/pair-model.js';

const ISSUES_PER_TRANSACTION = 1000;

/** A pair, and what triage suggested for its conversation. */
export interface TriageOutcome extends Pair {
  /** The text of the issue a link suggestion names. */
  linked: string | null;
  /** The texts of a create suggestion's possible duplicates, best first. */
  possible: string[];
}

/** A pair's conversation as the matcher saw it: its shortlist, and what the matcher's band alone decided. */
export interface MatchedConversation {
  pair: Pair;
  /** The conversation's title and first message as the pair classifier reads them (reportText). */
  report: string;
  shortlist: ShortlistedText[];
  /** The decision of the matcher's thresholds and review band (triage without the pair classifier). */
  band: TriageOutcome;
  /** How long matching took (prepare, then decide in a transaction under the product's dedup lock). */
  ms: number;
}

export interface MatchedRun {
  /** The product's open issues (the pairs' distinct first texts), by id. */
  issueTexts: ReadonlyMap<string, string>;
  conversations: MatchedConversation[];
  /** Storing the backlog's vectors (null: the matcher has none), and matching every conversation. */
  seconds: { vectors: number | null; matching: number };
}

const progress = (message: string) => process.stderr.write(`eval:triage: ${message}\n`);

/** A workspace and a product (triage `suggest`) whose open issues are the distinct first texts of the pairs. */
async function seedBacklog(database: DatabaseHandle, pairs: readonly Pair[]) {
  // The backlog is written with the lexical matcher's services, which index nothing: the vectors
  // of an embedding matcher are stored afterwards in batches (storeBacklogVectors), not one
  // embeddings request per issue.
  const services = createServices(database);
  const workspace = await services.admin.createWorkspace('Triage evaluation');
  const owner = await services.admin.createMember({ workspaceId: workspace.id, name: 'Owner', role: 'owner' });
  const actor: Actor = { workspaceId: workspace.id, apiKeyId: null, credentialId: owner.id, readOnly: false, member: owner };
  const product = await services.products.create(actor, { name: 'Backlog' }, '');
  const texts = [...new Set(pairs.map((pair) => pair.a))];
  const textOf = new Map<string, string>();
  for (let start = 0; start < texts.length; start += ISSUES_PER_TRANSACTION) {
    await inTransaction(database.db, async (work) => {
      for (const title of texts.slice(start, start + ISSUES_PER_TRANSACTION)) {
        const { row } = await services.issueWrites.create(work, {
          workspaceId: workspace.id, productId: product.id, prefix: product.issue_prefix, title, description: null,
          status: 'pending', priority: 'normal', assigneeId: null,
        });
        textOf.set(row.id, title);
      }
    });
  }
  return { actor, productId: product.id, textOf };
}

/**
 * Runs the matching on a migrated, empty database: one product holds every pair's first text as an
 * open issue (each distinct text once); each pair's second text is a conversation's first contact
 * message, titled by its first line as a widget chat is, matched as a triage run matches it (the
 * issue matcher's prepare, then its decision in a transaction under the product's dedup lock).
 */
export async function matchPairs(database: DatabaseHandle, detector: DuplicateDetector, pairs: readonly Pair[]): Promise<MatchedRun> {
  const { actor, productId, textOf } = await seedBacklog(database, pairs);
  let started = performance.now();
  const { embedder } = detector;
  let vectors: number | null = null;
  if (embedder) {
    await storeBacklogVectors(database.db, embeddingRepository(database.db), { workspaceId: actor.workspaceId, productId, model: embedder.model },
      (texts) => embedder.embed(texts), (stored, total) => {
        if (stored % 1000 === 0 || stored === total) progress(`stored ${stored}/${total} issue vectors`);
      });
    vectors = (performance.now() - started) / 1000;
  }

  started = performance.now();
  const matcher = createIssueMatcher({
    dialect: database.dialect, detector, issues: issueRepository(database.db), dedupStore: embeddingRepository(database.db),
  });
  const conversations: MatchedConversation[] = [];
  for (const pair of pairs) {
    const report = { title: titleFromBody(pair.b), description: pair.b };
    const runStarted = performance.now();
    const prepared = await matcher.prepare(report, actor.workspaceId, productId, 'matching failed');
    const match = await inTransaction(database.db, ({ tx }) => matcher.match(tx, actor.workspaceId, productId, prepared, 'matching failed'));
    conversations.push({
      pair, report: reportText(report), ms: performance.now() - runStarted,
      shortlist: match.shortlist.map(({ issue, score, cosine }) => ({ id: issue.id, text: issueText(issue), score, ...(cosine === undefined ? {} : { cosine }) })),
      band: { ...pair, linked: match.matched ? textOf.get(match.matched.id)! : null, possible: match.possible.map(({ issue }) => textOf.get(issue.id)!) },
    });
    if (conversations.length % 1000 === 0) progress(`matched ${conversations.length}/${pairs.length} conversations`);
  }
  return { issueTexts: textOf, conversations, seconds: { vectors, matching: (performance.now() - started) / 1000 } };
}

export interface MatchOptions {
  pairs: readonly Pair[];
  /** The matcher (LOOPDESK_DEDUP_PROVIDER when not given). */
  provider?: string;
  /** Where embeddings are kept between runs (embedding-cache.ts); none: every text is embedded. */
  embeddingCache?: string;
}

/** The pairs matched on a throwaway SQLite database; `use` gets the run and the matcher's name. */
export async function withMatchedRun<T>(options: MatchOptions, use: (run: MatchedRun, matcher: { name: string; band: Band; embeddingModel: string | null }) => T): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'loopdesk-eval-triage-'));
  const database = createDatabase(`sqlite:${join(dir, 'eval.db')}`);
  try {
    await database.migrate();
    const { detector, band } = await evalDetector(options.provider, embeddingRepository(database.db), options.embeddingCache);
    try {
      const run = await matchPairs(database, detector, options.pairs);
      return use(run, { name: detector.name, band, embeddingModel: detector.embedder?.model ?? null });
    } finally {
      await detector.close();
    }
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
