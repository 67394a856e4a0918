// Migration 0049 counts the conversations and messages that existed before it per UTC day and
// report dimensions (docs/reports.md, "Storage"): the rows are written with SQL at 0048, and the
// summary of this version, whose whole days read those counts, agrees with them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Migrator } from 'kysely';
import { createDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { newId } from '../../src/lib/ids.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { openTestApp } from '../helpers/harness.js';
import { databaseWrittenAt, insertOldProduct } from '../helpers/old-database.js';

const at = (hour: number) => new Date(Date.parse('2026-11-20T22:00:00.000Z') + hour * 3600_000).toISOString();

for (const dialect of DIALECTS) {
  describe(`migration 0049 on existing conversations and messages [${dialect}]`, () => {
    it('counts each day\'s conversations created, messages received and replies sent, per product, type, source and assignee', async () => {
      const workspaceId = newId();
      const productId = newId();
      const memberId = newId();
      const [assigned, unassigned] = [newId(), newId()];
      const url = await databaseWrittenAt(dialect, '0048_automation_rule_versions', async (db) => {
        await insertOldProduct(db, { workspaceId, productId, createdAt: at(0) });
        await db.insertInto('members').values({ id: memberId, workspace_id: workspaceId, display_name: 'Ana', role: 'owner', created_at: at(0) }).execute();
        for (const [id, type, assignee] of [[assigned, 'ticket', memberId], [unassigned, 'chat', null]] as const) {
          const dimensions = { product_id: productId, type, source: 'chat', assignee_id: assignee };
          await db.insertInto('conversations').values({
            id, workspace_id: workspaceId, ...dimensions, channel: 'chat', status: 'open', priority: 'normal',
            title: 'Old conversation', upvotes: 0, created_at: at(1), updated_at: at(30),
          }).execute();
          // The contact at 23:00, the agent's reply and note after midnight (the next UTC day), a system message.
          for (const [sender_type, hour, internal] of [['contact', 1, 0], ['agent', 3, 0], ['agent', 4, 1], ['system', 5, 0], ['contact', 6, 0]] as const) {
            await db.insertInto('messages').values({
              id: newId(), workspace_id: workspaceId, conversation_id: id, sender_type, sender_id: sender_type === 'agent' ? memberId : id,
              body: 'Hello', created_at: at(hour), internal, ...dimensions,
            }).execute();
          }
        }
      });

      const app = await openTestApp(url);
      try {
        const rows = await app.database.db.selectFrom('report_days')
          .select(['day', 'type', 'assignee_key', 'conversations_created', 'messages_received', 'messages_sent'])
          .where('workspace_id', '=', workspaceId).orderBy(['day', 'type']).execute();
        assert.deepEqual(rows, [
          { day: '2026-11-20', type: 'chat', assignee_key: '', conversations_created: 1, messages_received: 1, messages_sent: 0 },
          { day: '2026-11-20', type: 'ticket', assignee_key: memberId, conversations_created: 1, messages_received: 1, messages_sent: 0 },
          { day: '2026-11-21', type: 'chat', assignee_key: '', conversations_created: 0, messages_received: 1, messages_sent: 1 },
          { day: '2026-11-21', type: 'ticket', assignee_key: memberId, conversations_created: 0, messages_received: 1, messages_sent: 1 },
        ]);
      } finally {
        await app.close();
      }
    });

    it('its down step drops the table, and up again works', async () => {
      const database = createDatabase(await freshDatabaseUrl(dialect));
      try {
        const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations(database.dialect.columnTypes, database.dialect.name) } });
        const tables = async () => (await database.db.introspection.getTables()).map((table) => table.name);
        assert.equal((await migrator.migrateTo('0049_report_days')).error, undefined);
        assert.ok((await tables()).includes('report_days'));
        assert.equal((await migrator.migrateTo('0048_automation_rule_versions')).error, undefined);
        assert.ok(!(await tables()).includes('report_days'));
        assert.equal((await migrator.migrateTo('0049_report_days')).error, undefined);
        assert.ok((await tables()).includes('report_days'));
      } finally {
        await database.close();
      }
    });
  });
}
