// Notifications (docs/inbox.md, "Notifications"): one row per member told of something in a
// conversation (assigned to them, a contact wrote in theirs, a note mentioned them). A row names the
// conversation and who caused it, and copies no text: what a notification shows is read from the
// conversation and the actor as they are now, so erasing a contact leaves nothing of theirs here
// (the contact's foreign key is set null with the contact). Mail about them (`notification_mails`):
// at most one per member and conversation every 10 minutes, a job claimed like every mail job.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function notifications({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('notifications')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // Who is told.
        .addColumn('member_id', uuid, (c) => c.notNull().references('members.id').onDelete('cascade'))
        // assigned | message | mention
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('conversation_id', uuid, (c) => c.notNull().references('conversations.id').onDelete('cascade'))
        // Who caused it: a member or a contact (neither: a key without a member, or someone since removed or erased).
        .addColumn('actor_member_id', uuid, (c) => c.references('members.id').onDelete('set null'))
        .addColumn('actor_contact_id', uuid, (c) => c.references('contacts.id').onDelete('set null'))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('read_at', timestamp)
        .execute();
      // A member's list, newest first; its unread part (and count) by an index of its own.
      await db.schema.createIndex('notifications_member').on('notifications').columns(['member_id', 'workspace_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('notifications_member_unread').on('notifications').columns(['member_id', 'workspace_id', 'created_at', 'id'])
        .where(sql.ref('read_at'), 'is', null).execute();
      // The rows a deleted conversation, member or contact takes with it (or lets go of).
      await db.schema.createIndex('notifications_conversation').on('notifications').columns(['conversation_id']).execute();
      await db.schema.createIndex('notifications_actor_member').on('notifications').columns(['actor_member_id']).execute();
      await db.schema.createIndex('notifications_actor_contact').on('notifications').columns(['actor_contact_id']).execute();

      await db.schema
        .createTable('notification_mails')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('member_id', uuid, (c) => c.notNull().references('members.id').onDelete('cascade'))
        .addColumn('conversation_id', uuid, (c) => c.notNull().references('conversations.id').onDelete('cascade'))
        // notification (the kind every job table has, for the shared claim)
        .addColumn('kind', 'text', (c) => c.notNull())
        // pending | done | failed
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', timestamp)
        // The start of its 10-minute window: the notifications from then until it goes out are in it.
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('notification_mails_window').on('notification_mails').columns(['member_id', 'conversation_id', 'created_at']).execute();
      await db.schema.createIndex('notification_mails_conversation').on('notification_mails').columns(['conversation_id']).execute();
      await db.schema.createIndex('notification_mails_due').on('notification_mails').columns(['kind', 'status', 'next_attempt_at']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('notification_mails').execute();
      await db.schema.dropTable('notifications').execute();
    },
  };
}
