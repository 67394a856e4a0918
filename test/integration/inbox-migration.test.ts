// Migration 0018 (docs/inbox.md) gives the conversations that existed before it their list fields,
// read from their messages: the latest message and since when the contact waits. The rows are
// written with SQL at 0017, since no API of that version runs here; the answer is read through the
// API of this one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '../../src/lib/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { openTestApp } from '../helpers/harness.js';
import { databaseWrittenAt, insertOldProduct } from '../helpers/old-database.js';

const at = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`;

for (const dialect of DIALECTS) {
  describe(`migration 0018 on existing conversations [${dialect}]`, () => {
    it('fills last_message and waiting_since from the messages, and leaves them null without any', async () => {
      const workspaceId = newId();
      const productId = newId();
      const [silent, answered, waiting] = [newId(), newId(), newId()];
      const url = await databaseWrittenAt(dialect, '0017_triage', async (db) => {
        await insertOldProduct(db, { workspaceId, productId, createdAt: at(0) });
        for (const id of [silent, answered, waiting]) {
          await db.insertInto('conversations').values({
            id, workspace_id: workspaceId, product_id: productId, type: 'ticket', source: 'chat', status: 'open', priority: 'normal',
            title: 'Old conversation', upvotes: 0, created_at: at(1), updated_at: at(1),
          }).execute();
        }
        const message = (conversationId: string, minute: number, sender: string, body: string) => ({
          id: newId(), workspace_id: workspaceId, conversation_id: conversationId, sender_type: sender, sender_id: newId(), body, created_at: at(minute),
        });
        await db.insertInto('messages').values([
          message(answered, 2, 'contact', 'Question'), message(answered, 3, 'agent', 'Answer'),
          message(waiting, 2, 'contact', 'First'), message(waiting, 3, 'agent', 'Reply'), message(waiting, 4, 'contact', 'Follow-up'),
          message(waiting, 5, 'system', 'Good news'), message(waiting, 6, 'contact', `Still\nthere? ${'x'.repeat(200)}`),
        ]).execute();
      });

      const app = await openTestApp(url);
      try {
        const rows = await app.database.db.selectFrom('conversations')
          .select(['id', 'assignee_id', 'last_message_sender_type', 'last_message_excerpt', 'last_message_at', 'waiting_since'])
          .execute();
        const byId = new Map(rows.map((row) => [row.id, row]));
        assert.deepEqual({ ...byId.get(silent), id: undefined }, {
          id: undefined, assignee_id: null, last_message_sender_type: null, last_message_excerpt: null, last_message_at: null, waiting_since: null,
        });
        assert.deepEqual({ ...byId.get(answered), id: undefined }, {
          id: undefined, assignee_id: null, last_message_sender_type: 'agent', last_message_excerpt: 'Answer', last_message_at: at(3), waiting_since: null,
        });
        const stillWaiting = byId.get(waiting)!;
        assert.deepEqual([stillWaiting.last_message_sender_type, stillWaiting.last_message_at, stillWaiting.waiting_since], ['contact', at(6), at(4)]);
        assert.equal([...stillWaiting.last_message_excerpt!].length, 140);
        assert.ok(stillWaiting.last_message_excerpt!.startsWith('Still there? xxx'));
        const messages = await app.database.db.selectFrom('messages').select('internal').distinct().execute();
        assert.deepEqual(messages, [{ internal: 0 }]);
      } finally {
        await app.close();
      }
    });
  });
}
