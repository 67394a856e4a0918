// A version per workspace's rule set (docs/automation.md, "How rules run"): every write of a
// workspace's automation rules moves it in the same transaction, so each process keeps the active
// rules in memory, compiled, and reads only this number to know they are still current (a rule
// saved through one process is used by every other one at its next job). No row: version 0.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function automationRuleVersions({ uuid }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('automation_rule_versions')
        .addColumn('workspace_id', uuid, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('automation_rule_versions').ifExists().execute();
    },
  };
}
