// Tags of issues and conversations: one record_tags row per record and tag (the `tag` filter), and
// the workspace's tags with their counts (GET /tags), both kept by the records' write units.
import { sql } from 'kysely';
import type { Executor } from './executor.js';
import type { TagTable, TaggedRecordType } from '../schema.js';

/** A tag's key (lowercase) with the spelling a record gave it. */
export interface TagName {
  key: string;
  name: string;
}

export type TagRow = Pick<TagTable, 'name' | 'conversations' | 'issues'>;

/** The ids of the workspace's records of `type` carrying any of the tags (by key): a subquery for the lists' `tag` filter. */
export const taggedIds = (tx: Executor, workspaceId: string, type: TaggedRecordType, keys: readonly string[]) =>
  tx.selectFrom('record_tags').select('record_id')
    .where('workspace_id', '=', workspaceId).where('record_type', '=', type).where('tag_key', 'in', keys);

const COUNT_COLUMN = { issue: 'issues', conversation: 'conversations' } as const;

export function tagRepository(db: Executor) {
  return {
    /** Records that `added` now carry these tags and no longer `removed` ones; the counts follow. */
    async retag(workspaceId: string, type: TaggedRecordType, recordId: string, added: readonly TagName[], removed: readonly string[], tx: Executor = db): Promise<void> {
      if (removed.length) {
        await tx.deleteFrom('record_tags')
          .where('workspace_id', '=', workspaceId).where('record_type', '=', type).where('tag_key', 'in', removed).where('record_id', '=', recordId)
          .execute();
      }
      if (added.length) {
        await tx.insertInto('record_tags')
          .values(added.map(({ key }) => ({ workspace_id: workspaceId, record_type: type, tag_key: key, record_id: recordId })))
          .execute();
      }
      // In key order, so concurrent writers (PostgreSQL) lock the count rows in the same order.
      const deltas = [...added.map((tag) => ({ ...tag, delta: 1 })), ...removed.map((key) => ({ key, name: key, delta: -1 }))]
        .sort((x, y) => (x.key < y.key ? -1 : 1));
      if (deltas.length === 0) return;
      const column = COUNT_COLUMN[type];
      await tx.insertInto('tags')
        .values(deltas.map(({ key, name, delta }) => ({
          workspace_id: workspaceId, tag_key: key, name, conversations: type === 'conversation' ? delta : 0, issues: type === 'issue' ? delta : 0,
        })))
        .onConflict((conflict) => conflict.columns(['workspace_id', 'tag_key']).doUpdateSet({
          [column]: sql`tags.${sql.ref(column)} + excluded.${sql.ref(column)}`,
        }))
        .execute();
      if (removed.length) {
        await tx.deleteFrom('tags')
          .where('workspace_id', '=', workspaceId).where('tag_key', 'in', removed).where('conversations', '=', 0).where('issues', '=', 0)
          .execute();
      }
    },

    /** The workspace's tags in use, by key (code point order of the lowercase names). */
    async list(workspaceId: string, tx: Executor = db): Promise<TagRow[]> {
      return tx.selectFrom('tags').select(['name', 'conversations', 'issues']).where('workspace_id', '=', workspaceId).orderBy('tag_key').execute();
    },

  };
}

export type TagRepository = ReturnType<typeof tagRepository>;
