// Migration 0023 (docs/search.md, "Folding") folds the messages that existed before it into their
// conversations' documents, and its down step indexes every message on its own again. The rows are
// written with SQL at 0022, since no API of that version runs here; the index is read with the
// search of this one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Migrator, sql } from 'kysely';
import type { FullTextQuery } from '../../src/db/full-text.js';
import { migrations } from '../../src/db/migrations/index.js';
import { newId } from '../../src/lib/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { openTestApp, type TestApp } from '../helpers/harness.js';
import { databaseWrittenAt, insertOldProduct } from '../helpers/old-database.js';

const AT = '2026-11-21T10:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`migration 0023 on existing conversations [${dialect}]`, () => {
    it('folds every message into its conversation\'s document, and the down step unfolds them', async () => {
      const workspaceId = newId();
      const productId = newId();
      const conversationId = newId();
      const url = await databaseWrittenAt(dialect, '0022_list_indexes', async (db) => {
        await insertOldProduct(db, { workspaceId, productId, createdAt: AT });
        await db.insertInto('conversations').values({
          id: conversationId, workspace_id: workspaceId, product_id: productId, type: 'ticket', source: 'chat', status: 'open', priority: 'normal',
          title: 'Invoice question', upvotes: 0, tags: '[]', created_at: AT, updated_at: AT,
        }).execute();
        await db.insertInto('messages').values(['The invoice shows the wrong vat number', 'Send me the corrected pdf please'].map((body) => ({
          id: newId(), workspace_id: workspaceId, conversation_id: conversationId, sender_type: 'contact', sender_id: newId(), body, created_at: AT, internal: 0,
        }))).execute();
      });

      const app = await openTestApp(url);
      try {
        const search = (app: TestApp, words: string[]) => {
          const query: FullTextQuery = { workspaceId, words, types: ['conversation'], limit: 10, offset: 0 };
          return app.database.dialect.fullText.search(app.database.db, query);
        };
        const unfolded = async () => Number((dialect === 'sqlite'
          ? await sql<{ n: number }>`select count(*) as n from search_documents where kind = 'message'`.execute(app.database.db)
          : await sql<{ n: number }>`select count(*)::int as n from messages where not search_folded`.execute(app.database.db)).rows[0]!.n);

        // Words of two messages (and of the title) find the conversation together: one document.
        const both = await search(app, ['vat', 'corrected', 'invoice']);
        assert.deepEqual([both.hits.map((hit) => hit.id), both.total], [[conversationId], 1]);
        assert.equal(await unfolded(), 0);

        const migrator = new Migrator({ db: app.database.db, provider: { getMigrations: async () => migrations(app.database.dialect.columnTypes, dialect) } });
        assert.equal((await migrator.migrateTo('0022_list_indexes')).error, undefined);
        if (dialect === 'sqlite') {
          // The search of this version reads 0022's SQLite index as it reads 0023's: a message is a document again.
          assert.deepEqual((await search(app, ['vat', 'corrected'])).total, 0);
          assert.deepEqual((await search(app, ['corrected', 'pdf'])).hits.map((hit) => hit.id), [conversationId]);
        } else {
          const matching = async (table: string, words: string) => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}
            where search_vector @@ to_tsquery('loopdesk_search', ${words})`.execute(app.database.db)).rows[0]!.n);
          assert.deepEqual([await matching('messages', 'corrected & pdf'), await matching('conversations', 'vat'), await matching('conversations', 'invoice')], [1, 0, 1]);
        }
        assert.equal((await migrator.migrateToLatest()).error, undefined);
        assert.deepEqual((await search(app, ['vat', 'corrected'])).hits.map((hit) => hit.id), [conversationId]);
      } finally {
        await app.close();
      }
    });
  });
}
