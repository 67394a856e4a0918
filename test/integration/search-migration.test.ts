// Migration 0022 (docs/search.md) replaces the index of one document per row by one per result: it
// builds the documents of the rows written before it. The rows are written with SQL at 0021, since
// no API of that version runs here; they are searched through the API of this one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '../../src/lib/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { openTestApp } from '../helpers/harness.js';
import { databaseWrittenAt, insertOldProduct } from '../helpers/old-database.js';

const at = (minute: number) => `2026-11-25T10:${String(minute).padStart(2, '0')}:00.000Z`;

for (const dialect of DIALECTS) {
  describe(`migration 0022 on an existing index [${dialect}]`, () => {
    it('indexes each issue, contact and conversation (its title and all its messages) written before it', async () => {
      const [workspaceId, productId, contactId, conversationId, issueId] = [newId(), newId(), newId(), newId(), newId()];
      const url = await databaseWrittenAt(dialect, '0021_email', async (db) => {
        await insertOldProduct(db, { workspaceId, productId, createdAt: at(0) });
        await db.insertInto('contacts').values({ id: contactId, workspace_id: workspaceId, name: 'Ada Lovelace', email: 'ada@example.com', created_at: at(0), updated_at: at(0) }).execute();
        await db.insertInto('conversations').values({
          id: conversationId, workspace_id: workspaceId, product_id: productId, contact_id: contactId, type: 'ticket', source: 'chat', status: 'open',
          priority: 'normal', title: 'Refund request', upvotes: 0, created_at: at(1), updated_at: at(1),
        }).execute();
        const message = (minute: number, sender: string, body: string) => ({
          id: newId(), workspace_id: workspaceId, conversation_id: conversationId, sender_type: sender, sender_id: newId(), body, created_at: at(minute),
        });
        await db.insertInto('messages').values([message(2, 'contact', 'My invoice was charged twice'), message(3, 'agent', 'The duplicate is refunded')]).execute();
        await db.insertInto('issues').values({
          id: issueId, workspace_id: workspaceId, product_id: productId, shortcode: 'OLD-1', title: 'Invoice totals wrong', description: 'Rounding of taxes',
          status: 'pending', priority: 'normal', created_at: at(4), updated_at: at(4),
        }).execute();
      });

      const app = await openTestApp(url);
      try {
        const { key } = await app.services.admin.createKey({ workspaceId, readOnly: true });
        await app.checkAnswers(key);
        const found = async (q: string) => {
          const res = await app.client(key).get(`/api/v1/search?q=${encodeURIComponent(q)}`);
          assert.equal(res.status, 200, res.text);
          return { results: res.body.data.map((result: any) => `${result.type}:${result.id}`), total: res.body.pagination.total };
        };
        // Words of two messages, of the title and a message: the conversation, once.
        assert.deepEqual(await found('charged refunded'), { results: [`conversation:${conversationId}`], total: 1 });
        assert.deepEqual(await found('refund invoice'), { results: [`conversation:${conversationId}`], total: 1 });
        assert.deepEqual(await found('taxes'), { results: [`issue:${issueId}`], total: 1 });
        assert.deepEqual(await found('lovelace'), { results: [`contact:${contactId}`], total: 1 });
        assert.deepEqual(new Set((await found('invoice')).results), new Set([`conversation:${conversationId}`, `issue:${issueId}`]));
        // And the triggers keep the documents of the migrated rows.
        await app.database.db.updateTable('messages').set({ body: '[erased]' }).where('conversation_id', '=', conversationId).execute();
        assert.deepEqual(await found('charged'), { results: [], total: 0 });
      } finally {
        await app.close();
      }
    });
  });
}
