// Each reply mail gets its own return path, `bounces+{token}@{inbound domain}` (docs/email.md,
// "Delivery reports"): the token is kept with the reply's job, and a delivery report counts only
// when it comes back to that address. Jobs written before have none (null): their mail went out
// with the From address as the envelope sender, and reports about them are no longer taken.
import type { Kysely } from 'kysely';

export function emailReturnPaths() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('email_jobs').addColumn('return_path_token', 'text').execute();
      await db.schema.createIndex('email_jobs_return_path_token').unique().on('email_jobs').column('return_path_token').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('email_jobs_return_path_token').execute();
      await db.schema.alterTable('email_jobs').dropColumn('return_path_token').execute();
    },
  };
}
