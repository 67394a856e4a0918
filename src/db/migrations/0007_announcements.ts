// Release announcements (docs/events.md): one job per (release, kind, target), created by the
// dispatcher in the transaction that fans the release.published event out: a `message` job per
// linked conversation, an `email` job per contact with an email. The unique key makes a repeat
// (a second fan-out, a republished release) create nothing, so each is announced at most once;
// the job's status, written with its effect, makes it at least once.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function announcements(types: ColumnTypes) {
  const { uuid, timestamp } = types;
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('announcement_jobs')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('release_id', uuid, (c) => c.notNull().references('releases.id').onDelete('cascade'))
        // message | email
        .addColumn('kind', 'text', (c) => c.notNull())
        // The conversation (message) or the contact (email) announced to.
        .addColumn('target_id', uuid, (c) => c.notNull())
        // JSON: what is posted or mailed, rendered when the job was created.
        .addColumn('content', 'text', (c) => c.notNull())
        // pending | done | failed
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        // When the job is due (pending), null otherwise; a claim pushes it ahead by a lease.
        .addColumn('next_attempt_at', timestamp)
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .addUniqueConstraint('announcement_jobs_release_kind_target', ['release_id', 'kind', 'target_id'])
        .execute();
      await db.schema.createIndex('announcement_jobs_due').on('announcement_jobs').columns(['kind', 'status', 'next_attempt_at']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('announcement_jobs').ifExists().execute();
    },
  };
}
