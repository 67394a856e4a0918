// People and sessions (docs/accounts.md): a password per user account (one person, one password,
// whatever workspaces they belong to), server-side sessions, one-time invitations and the failed
// sign-ins behind the lockout, kept in the database so that every process sees the same count.
// Provenance records of the deduplicating create may now come from a session: their api_key_id
// becomes nullable and they name the member who made the call. The table is rebuilt (SQLite
// cannot drop NOT NULL in place), the same way on both databases.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

const SOURCE_COLUMNS = ['id', 'workspace_id', 'issue_id', 'api_key_id', 'title', 'description', 'matched_existing', 'score', 'detector', 'created_at'];

export function accounts(types: ColumnTypes) {
  const { uuid, timestamp } = types;

  async function createSources(db: Kysely<any>, name: string, apiKeyNullable: boolean): Promise<void> {
    let table = db.schema
      .createTable(name)
      .addColumn('id', uuid, (c) => c.primaryKey())
      .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('issue_id', uuid, (c) => c.notNull().references('issues.id').onDelete('cascade'))
      .addColumn('api_key_id', uuid, (c) => (apiKeyNullable ? c : c.notNull()).references('api_keys.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('matched_existing', 'integer', (c) => c.notNull())
      .addColumn('score', 'double precision')
      .addColumn('detector', 'text', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull());
    if (apiKeyNullable) table = table.addColumn('member_id', uuid, (c) => c.references('members.id').onDelete('set null'));
    await table.execute();
  }

  /** Copies issue_api_sources into a table of the other shape and puts it in its place. */
  async function rebuildSources(db: Kysely<any>, apiKeyNullable: boolean): Promise<void> {
    await createSources(db, 'issue_api_sources_rebuilt', apiKeyNullable);
    const columns = sql.join(SOURCE_COLUMNS.map((column) => sql.ref(column)));
    await sql`insert into issue_api_sources_rebuilt (${columns}) select ${columns} from issue_api_sources`.execute(db);
    await db.schema.dropTable('issue_api_sources').execute();
    await db.schema.alterTable('issue_api_sources_rebuilt').renameTo('issue_api_sources').execute();
    await db.schema.createIndex('issue_api_sources_issue').on('issue_api_sources').columns(['issue_id']).execute();
  }

  return {
    async up(db: Kysely<any>): Promise<void> {
      // scrypt, in the form `scrypt$ln=15,r=8,p=3$<salt>$<hash>` (src/domain/accounts/passwords.ts); null: no password yet.
      await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', uuid, (c) => c.primaryKey())
        // SHA-256 of the cookie's token; the token itself is never stored.
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('member_id', uuid, (c) => c.notNull().references('members.id').onDelete('cascade'))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('last_used_at', timestamp, (c) => c.notNull())
        // 30 days after the last use (sliding); moved at most once a minute.
        .addColumn('expires_at', timestamp, (c) => c.notNull())
        .addColumn('revoked_at', timestamp)
        .execute();
      await db.schema.createIndex('sessions_member').on('sessions').columns(['member_id']).execute();

      await db.schema
        .createTable('invitations')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // Lowercased; null for the first start's owner link, whose taker chooses the email.
        .addColumn('email', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('invited_by', uuid, (c) => c.references('members.id').onDelete('set null'))
        // The existing member the invitation hands to a person (the first start's owner); null: a new member.
        .addColumn('member_id', uuid, (c) => c.references('members.id').onDelete('cascade'))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('expires_at', timestamp, (c) => c.notNull())
        .addColumn('accepted_at', timestamp)
        .execute();
      await db.schema.createIndex('invitations_workspace_created').on('invitations').columns(['workspace_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('sign_in_failures')
        .addColumn('id', uuid, (c) => c.primaryKey())
        // Lowercased, whether or not an account has it: unknown emails lock like known ones.
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('failed_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sign_in_failures_email').on('sign_in_failures').columns(['email', 'failed_at']).execute();
      await db.schema.createIndex('sign_in_failures_failed').on('sign_in_failures').columns(['failed_at']).execute();

      await rebuildSources(db, true);
    },

    async down(db: Kysely<any>): Promise<void> {
      await sql`delete from issue_api_sources where api_key_id is null`.execute(db);
      await rebuildSources(db, false);
      for (const table of ['sign_in_failures', 'invitations', 'sessions']) await db.schema.dropTable(table).ifExists().execute();
      await db.schema.alterTable('users').dropColumn('password_hash').execute();
    },
  };
}
