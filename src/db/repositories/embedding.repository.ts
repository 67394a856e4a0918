// What duplicate detection reads and writes: stored issue embeddings, the per-product dedup
// version counter, and a product's candidates. Vectors cross this boundary as Float32Array and
// are stored as little-endian float32 bytes (BLOB/bytea).
import { sql } from 'kysely';
import { compileOnce } from './compiled-query.js';
import type { Executor } from './executor.js';

export interface StoredEmbedding {
  issueId: string;
  model: string;
  vector: Float32Array;
  textHash: string;
}

export interface EmbeddingWrite extends StoredEmbedding {
  workspaceId: string;
  productId: string;
  updatedAt: string;
}

/** The statuses that make an issue a duplicate candidate. */
export const CANDIDATE_STATUSES: readonly string[] = ['pending', 'in_progress', 'icebox'];

export interface CandidateRow {
  id: string;
  title: string;
  description: string | null;
  createdAt: string;
}

/** An issue as its last dedup-relevant write left it: a candidate now (`open`) or no longer. */
export interface CandidateChangeRow extends CandidateRow {
  open: boolean;
}

const COLUMNS = ['issue_id', 'model', 'dimension', 'vector', 'text_hash'] as const;
// Keeps `in (...)` lists far below SQLite's and PostgreSQL's bound-parameter limits.
const IDS_PER_QUERY = 500;

/** A stored vector's bytes as floats. */
export function float32Of(bytes: Buffer, dimension: number): Float32Array {
  // Copying into a fresh Float32Array also fixes alignment: a driver's Buffer may start at any byte.
  const vector = new Float32Array(dimension);
  new Uint8Array(vector.buffer).set(bytes.subarray(0, dimension * 4));
  return vector;
}

function toStored(row: { issue_id: string; model: string; dimension: number; vector: Buffer; text_hash: string }): StoredEmbedding {
  return { issueId: row.issue_id, model: row.model, vector: float32Of(row.vector, row.dimension), textHash: row.text_hash };
}

export const toBytes = (vector: Float32Array): Buffer => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

export function embeddingRepository(db: Executor) {
  const bumpVersion = compileOnce(['workspaceId', 'productId'], ({ workspaceId, productId }: { workspaceId: string; productId: string }) =>
    db
      .insertInto('dedup_versions')
      .values({ product_id: productId, workspace_id: workspaceId, version: 1 })
      .onConflict((oc) => oc.column('product_id').doUpdateSet({ version: sql<number>`dedup_versions.version + 1` }))
      .returning('version'),
  );
  // Read by a decision whose in-memory candidates are behind the product's version: the few issues written since.
  type Since = { workspaceId: string; productId: string; version: number };
  const stampedAfter = compileOnce(['workspaceId', 'productId', 'version'], ({ workspaceId, productId, version }: Since) =>
    db.selectFrom('issues').select(['id', 'title', 'description', 'status', 'created_at'])
      .where('workspace_id', '=', workspaceId).where('product_id', '=', productId).where('dedup_version', '>', version));
  // Read by every deduplicating decision, under the product's dedup lock.
  const versionOf = compileOnce(['workspaceId', 'productId'], ({ workspaceId, productId }: { workspaceId: string; productId: string }) =>
    db.selectFrom('dedup_versions').select('version').where('workspace_id', '=', workspaceId).where('product_id', '=', productId),
  );

  return {
    /** Makes every in-memory dedup cache of the product stale; call it in each transaction that writes the product's issues. The version it wrote. */
    async bumpProductVersion(workspaceId: string, productId: string, tx: Executor): Promise<number> {
      return Number((await bumpVersion(tx, { workspaceId, productId }))[0]!.version);
    },

    /** 0 until the product's issues are first written. */
    async productVersion(workspaceId: string, productId: string, tx: Executor = db): Promise<number> {
      const [row] = await versionOf(tx, { workspaceId, productId });
      return row ? Number(row.version) : 0;
    },

    /** The product's issues a new report may duplicate, oldest first (created_at, then id). */
    async openCandidates(workspaceId: string, productId: string, tx: Executor = db): Promise<CandidateRow[]> {
      const rows = await tx
        .selectFrom('issues')
        .select(['id', 'title', 'description', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .where('product_id', '=', productId)
        .where('status', 'in', CANDIDATE_STATUSES)
        .execute();
      // Sorted here: asked to sort, SQLite walks every issue of the workspace in created_at order
      // rather than search the product's open ones (issues_workspace_product_status) and sort them.
      rows.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1));
      return rows.map(({ created_at: createdAt, ...row }) => ({ ...row, createdAt }));
    },

    /**
     * The product's issues whose creation or change of title, description or status committed a
     * dedup version after `version` (each stamped with it), candidates or not.
     */
    async changedSince(workspaceId: string, productId: string, version: number, tx: Executor = db): Promise<CandidateChangeRow[]> {
      const rows = await stampedAfter(tx, { workspaceId, productId, version });
      return rows.map(({ id, title, description, status, created_at: createdAt }) =>
        ({ id, title, description, createdAt, open: CANDIDATE_STATUSES.includes(status) }));
    },

    async forProduct(workspaceId: string, productId: string, model: string, tx: Executor = db): Promise<StoredEmbedding[]> {
      const rows = await tx
        .selectFrom('issue_embeddings')
        .select(COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .where('product_id', '=', productId)
        .where('model', '=', model)
        .execute();
      return rows.map(toStored);
    },

    async forIssues(workspaceId: string, issueIds: readonly string[], model: string, tx: Executor = db): Promise<StoredEmbedding[]> {
      const found: StoredEmbedding[] = [];
      for (let start = 0; start < issueIds.length; start += IDS_PER_QUERY) {
        const rows = await tx
          .selectFrom('issue_embeddings')
          .select(COLUMNS)
          .where('workspace_id', '=', workspaceId)
          .where('issue_id', 'in', issueIds.slice(start, start + IDS_PER_QUERY))
          .where('model', '=', model)
          .execute();
        found.push(...rows.map(toStored));
      }
      return found;
    },

    async upsert(embedding: EmbeddingWrite, tx: Executor = db): Promise<void> {
      const values = {
        model: embedding.model,
        dimension: embedding.vector.length,
        vector: toBytes(embedding.vector),
        text_hash: embedding.textHash,
        updated_at: embedding.updatedAt,
      };
      await tx
        .insertInto('issue_embeddings')
        .values({ issue_id: embedding.issueId, workspace_id: embedding.workspaceId, product_id: embedding.productId, ...values })
        .onConflict((oc) => oc.column('issue_id').doUpdateSet(values))
        .execute();
    },
  };
}

export type EmbeddingRepository = ReturnType<typeof embeddingRepository>;
