// The triage evaluation's run (`npm run eval:triage`, docs/triage.md "Evaluation"): labelled pairs
// become one product's backlog and its conversations, and every conversation is triaged by the
// service the job queue calls (runTriage), on a real database, with the matcher under test.
import type { DatabaseHandle } from '../../../db/database.js';
import { embeddingRepository } from '../../../db/repositories/embedding.repository.js';
import { storeBacklogVectors } from '../../../dedup/backlog-vectors.js';
import type { DuplicateDetector } from '../../../dedup/detector.js';
import type { Pair } from '../../../dedup/eval/pairs.js';
import { createServices } from '../../../services.js';
import type { Actor } from '../../accounts/actor.js';
import { inTransaction } from '../../shared/unit-of-work.js';
import { titleFromBody } from '../../widget/visitor.shapes.js';

const ISSUES_PER_TRANSACTION = 1000;

/** A pair, and what triage suggested for its conversation. */
export interface TriageOutcome extends Pair {
  kind: 'link' | 'create';
  /** The text of the issue a link suggestion names. */
  linked: string | null;
  /** The texts of a create suggestion's possible duplicates, best first. */
  possible: string[];
  /** How long runTriage took (matching, the suggestion's transaction). */
  ms: number;
}

export interface TriageRun {
  /** Open issues in the product's backlog: the pairs' distinct first texts. */
  backlog: number;
  outcomes: TriageOutcome[];
  /** Storing the backlog's vectors (null: the matcher has none), and triaging every conversation. */
  seconds: { vectors: number | null; triage: number };
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
 * Runs the evaluation on a migrated, empty database: one product holds every pair's first text as
 * an open issue (each distinct text once); each pair's second text is a new conversation's first
 * contact message, titled by its first line as a widget chat is, and triaged once.
 */
export async function runTriageEval(database: DatabaseHandle, detector: DuplicateDetector, pairs: readonly Pair[]): Promise<TriageRun> {
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
  const { conversations, triage } = createServices(database, { detector });
  const outcomes: TriageOutcome[] = [];
  for (const pair of pairs) {
    const conversation = await conversations.create(actor, { product_id: productId, title: titleFromBody(pair.b), body: pair.b });
    const runStarted = performance.now();
    const suggestion = await triage.runTriage(actor.workspaceId, conversation.id);
    const ms = performance.now() - runStarted;
    if (!suggestion) throw new Error(`triage made no suggestion for conversation ${conversation.id}`);
    outcomes.push({
      ...pair, kind: suggestion.kind, ms,
      linked: suggestion.kind === 'link' ? textOf.get(suggestion.issue!.id)! : null,
      possible: suggestion.possible_duplicates.map(({ issue }) => textOf.get(issue.id)!),
    });
    if (outcomes.length % 1000 === 0) progress(`triaged ${outcomes.length}/${pairs.length} conversations`);
  }
  return { backlog: textOf.size, outcomes, seconds: { vectors, triage: (performance.now() - started) / 1000 } };
}
