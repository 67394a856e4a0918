// Migration 0029 gives the conversations that existed before it their channel, from what they
// hold: email and form keep their source; a chat begun in a widget session is a chat, any other an
// import. The rows are written with SQL at 0025, since no API of that version runs here; the answer
// is read through the API of this one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '../../src/lib/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { openTestApp } from '../helpers/harness.js';
import { databaseWrittenAt, insertOldProduct } from '../helpers/old-database.js';

const AT = '2026-11-21T10:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`migration 0029 on existing conversations [${dialect}]`, () => {
    it('sets channel from source and the widget session that began it', async () => {
      const workspaceId = newId();
      const productId = newId();
      const contactId = newId();
      const sessionId = newId();
      const ids = { email: newId(), form: newId(), widget: newId(), imported: newId() };
      const url = await databaseWrittenAt(dialect, '0025_conversation_suggestions_index', async (db) => {
        await insertOldProduct(db, { workspaceId, productId, createdAt: AT });
        await db.insertInto('contacts').values({ id: contactId, workspace_id: workspaceId, name: 'Ana', email: 'ana@example.com', created_at: AT, updated_at: AT }).execute();
        await db.insertInto('widget_sessions').values({
          id: sessionId, workspace_id: workspaceId, product_id: productId, contact_id: contactId, token_hash: 'hash', verified: 0, created_at: AT, last_used_at: AT,
        }).execute();
        const conversation = (id: string, source: string, widgetSessionId: string | null = null) => ({
          id, workspace_id: workspaceId, product_id: productId, contact_id: contactId, type: 'ticket', source, status: 'open', priority: 'normal',
          title: `Old ${source}`, upvotes: 0, widget_session_id: widgetSessionId, created_at: AT, updated_at: AT,
        });
        await db.insertInto('conversations').values([
          conversation(ids.email, 'email'), conversation(ids.form, 'form'), conversation(ids.widget, 'chat', sessionId), conversation(ids.imported, 'chat'),
        ]).execute();
      });

      const app = await openTestApp(url);
      try {
        const rows = await app.database.db.selectFrom('conversations').select(['id', 'channel']).execute();
        const channelOf = new Map(rows.map((row) => [row.id, row.channel]));
        assert.deepEqual(
          Object.fromEntries(Object.entries(ids).map(([what, id]) => [what, channelOf.get(id)])),
          { email: 'email', form: 'form', widget: 'chat', imported: 'import' },
        );
      } finally {
        await app.close();
      }
    });
  });
}
