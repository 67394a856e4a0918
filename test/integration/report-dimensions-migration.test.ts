// Migration 0047 gives the stopped clocks and the messages that existed before it their
// conversation's product, type, source and assignee (docs/reports.md, "Window and filters"): the
// rows are written with SQL at 0046, and a filtered report of this version reads them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Migrator } from 'kysely';
import { createDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { newId } from '../../src/lib/ids.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { openTestApp } from '../helpers/harness.js';
import { databaseWrittenAt, insertOldProduct } from '../helpers/old-database.js';

const at = (minute: number) => new Date(Date.parse('2026-11-21T10:00:00.000Z') + minute * 60_000).toISOString();

for (const dialect of DIALECTS) {
  describe(`migration 0047 on existing clocks and messages [${dialect}]`, () => {
    it('stamps each row with its conversation\'s product, type, source and assignee', async () => {
      const workspaceId = newId();
      const productId = newId();
      const memberId = newId();
      const [assigned, unassigned] = [newId(), newId()];
      const url = await databaseWrittenAt(dialect, '0046_report_clock_index', async (db) => {
        await insertOldProduct(db, { workspaceId, productId, createdAt: at(0) });
        await db.insertInto('members').values({ id: memberId, workspace_id: workspaceId, display_name: 'Ana', role: 'owner', created_at: at(0) }).execute();
        for (const [id, type, source, assignee] of [[assigned, 'ticket', 'email', memberId], [unassigned, 'chat', 'chat', null]] as const) {
          await db.insertInto('conversations').values({
            id, workspace_id: workspaceId, product_id: productId, type, source, channel: source, status: 'resolved', priority: 'normal',
            title: 'Old conversation', upvotes: 0, assignee_id: assignee, created_at: at(1), updated_at: at(30),
          }).execute();
          await db.insertInto('messages').values({
            id: newId(), workspace_id: workspaceId, conversation_id: id, sender_type: 'contact', sender_id: newId(), body: 'Hello', created_at: at(1), internal: 0,
          }).execute();
          await db.insertInto('sla_clocks').values({
            id: newId(), workspace_id: workspaceId, conversation_id: id, target: 'resolution', started_at: at(1), stopped_at: at(30), value_seconds: 1740, business_seconds: 1740,
          }).execute();
        }
      });

      const app = await openTestApp(url);
      try {
        for (const table of ['messages', 'sla_clocks'] as const) {
          const rows = await app.database.db.selectFrom(table).select(['conversation_id', 'product_id', 'type', 'source', 'assignee_id']).orderBy('conversation_id').execute();
          assert.deepEqual(
            rows.map(({ conversation_id, ...dimensions }) => [conversation_id, dimensions]).sort(),
            [
              [assigned, { product_id: productId, type: 'ticket', source: 'email', assignee_id: memberId }],
              [unassigned, { product_id: productId, type: 'chat', source: 'chat', assignee_id: null }],
            ].sort(),
            table,
          );
        }
      } finally {
        await app.close();
      }
    });

    it('its down step gives 0046\'s tables and indexes back, and up again works', async () => {
      const database = createDatabase(await freshDatabaseUrl(dialect));
      try {
        const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations(database.dialect.columnTypes, database.dialect.name) } });
        assert.equal((await migrator.migrateTo('0047_report_dimensions')).error, undefined);
        assert.equal((await migrator.migrateTo('0046_report_clock_index')).error, undefined);
        const columns = async (table: string) => (await database.db.introspection.getTables()).find((t) => t.name === table)!.columns.map((c) => c.name);
        for (const table of ['messages', 'sla_clocks']) assert.ok(!(await columns(table)).includes('product_id'), table);
        assert.equal((await migrator.migrateTo('0047_report_dimensions')).error, undefined);
        for (const table of ['messages', 'sla_clocks']) assert.ok((await columns(table)).includes('assignee_id'), table);
      } finally {
        await database.close();
      }
    });
  });
}
