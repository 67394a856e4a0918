// An upvote belongs to a voter: the contact of a verified visitor, the session of any other. An
// email a visitor types proves nothing, so the votes of the contact it names must be neither shown
// to nor cast by whoever types it: that would tell them whether the email is a known customer's.
// Existing upvotes keep their contact as voter. The table is rebuilt (SQLite cannot change a
// primary key in place), the same way on both databases.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

const REBUILT = 'idea_upvotes_rebuilt';

export function upvoteVoters({ uuid, timestamp }: ColumnTypes) {
  /** A new idea_upvotes filled by `copy` (an insert from the old table), in the old one's place. */
  async function rebuild(db: Kysely<any>, withVoter: boolean, copy: (table: string) => ReturnType<typeof sql>): Promise<void> {
    let table = db.schema
      .createTable(REBUILT)
      .addColumn('conversation_id', uuid, (c) => c.notNull().references('conversations.id').onDelete('cascade'))
      .addColumn('contact_id', uuid, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
      .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('created_at', timestamp, (c) => c.notNull());
    table = withVoter
      ? table.addColumn('voter_id', uuid, (c) => c.notNull()).addPrimaryKeyConstraint('idea_upvotes_voter_pk', ['conversation_id', 'voter_id'])
      : table.addPrimaryKeyConstraint('idea_upvotes_pk', ['conversation_id', 'contact_id']);
    await table.execute();
    await copy(REBUILT).execute(db);
    await db.schema.dropTable('idea_upvotes').execute();
    await db.schema.alterTable(REBUILT).renameTo('idea_upvotes').execute();
    await db.schema.createIndex('idea_upvotes_contact').on('idea_upvotes').columns(['contact_id']).execute();
  }

  return {
    async up(db: Kysely<any>): Promise<void> {
      await rebuild(db, true, (table) => sql`insert into ${sql.table(table)} (conversation_id, contact_id, workspace_id, created_at, voter_id)
        select conversation_id, contact_id, workspace_id, created_at, contact_id from idea_upvotes`);
    },

    async down(db: Kysely<any>): Promise<void> {
      await rebuild(db, false, (table) => sql`insert into ${sql.table(table)} (conversation_id, contact_id, workspace_id, created_at)
        select conversation_id, contact_id, workspace_id, min(created_at) from idea_upvotes group by conversation_id, contact_id, workspace_id`);
    },
  };
}
