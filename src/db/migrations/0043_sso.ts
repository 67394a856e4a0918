// Single sign-on with OpenID Connect (docs/sso.md). `sso_configs` holds a workspace's provider (one
// at most): its issuer, the client Loopdesk is registered as, the client secret as the provider
// issued it (stored like webhook secrets: the database is the secret store, see docs/operations.md
// on backups), which email domains may sign in and join, and whether password sign-in is off for
// everyone but owners. `sso_sign_ins` holds each sign-in begun at /auth/sso/start until its
// callback takes it (once) or it expires: the state (as its SHA-256), the browser it was begun in
// (the SHA-256 of a cookie), the nonce, the PKCE verifier and the redirect URI the provider was given.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function sso({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('sso_configs')
        .addColumn('workspace_id', uuid, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_secret', 'text', (c) => c.notNull())
        // JSON array of lowercase domain names.
        .addColumn('allowed_domains', 'text', (c) => c.notNull())
        .addColumn('default_role', 'text', (c) => c.notNull())
        .addColumn('enforce', 'integer', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sso_sign_ins')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('browser_hash', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('expires_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sso_sign_ins_expires').on('sso_sign_ins').column('expires_at').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('sso_sign_ins').ifExists().execute();
      await db.schema.dropTable('sso_configs').ifExists().execute();
    },
  };
}
