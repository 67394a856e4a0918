// The team inbox (docs/inbox.md): a conversation's assignee, the list fields kept on the row by the
// conversations' write path (the latest message's sender, excerpt and time; since when the
// contact has been waiting for an answer), internal notes among the messages, and saved replies.
// Existing conversations get their list fields from their messages here, once.
import { sql, type Kysely } from 'kysely';
import { messageExcerpt } from '../../domain/conversations/message-excerpt.js';
import type { ColumnTypes } from '../dialect.js';

const BACKFILL_PAGE = 500;

/** last_message_* of every existing conversation, a page of conversations at a time. */
async function backfillLastMessages(db: Kysely<any>): Promise<void> {
  for (let offset = 0; ; offset += BACKFILL_PAGE) {
    const page: { id: string }[] = await db.selectFrom('conversations').select('id').orderBy('id').limit(BACKFILL_PAGE).offset(offset).execute();
    if (page.length === 0) return;
    // Each conversation's latest message: no message of it comes later (id breaks a tie, as lists order).
    const latest: { conversation_id: string; sender_type: string; body: string; created_at: unknown }[] = await db
      .selectFrom('messages as m')
      .select(['m.conversation_id', 'm.sender_type', 'm.body', 'm.created_at'])
      .where('m.conversation_id', 'in', page.map((row) => row.id))
      .where(({ not, exists, selectFrom }) => not(exists(
        selectFrom('messages as n').select(sql`1`.as('one'))
          .whereRef('n.conversation_id', '=', 'm.conversation_id')
          .where((eb) => eb.or([eb('n.created_at', '>', eb.ref('m.created_at')), eb.and([eb('n.created_at', '=', eb.ref('m.created_at')), eb('n.id', '>', eb.ref('m.id'))])])),
      )))
      .execute();
    for (const message of latest) {
      await db.updateTable('conversations')
        .set({ last_message_sender_type: message.sender_type, last_message_excerpt: messageExcerpt(message.body), last_message_at: message.created_at })
        .where('id', '=', message.conversation_id)
        .execute();
    }
  }
}

export function inbox({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('conversations').addColumn('assignee_id', uuid, (c) => c.references('members.id').onDelete('set null')).execute();
      // agent | contact | system, of the latest message (notes included: the team sees them).
      await db.schema.alterTable('conversations').addColumn('last_message_sender_type', 'text').execute();
      await db.schema.alterTable('conversations').addColumn('last_message_excerpt', 'text').execute();
      await db.schema.alterTable('conversations').addColumn('last_message_at', timestamp).execute();
      await db.schema.alterTable('conversations').addColumn('waiting_since', timestamp).execute();
      // 1: an internal note of the team, never shown to the contact.
      await db.schema.alterTable('messages').addColumn('internal', 'integer', (c) => c.notNull().defaultTo(0)).execute();

      // The Mine and Unassigned views, newest first.
      await db.schema.createIndex('conversations_assignee').on('conversations').columns(['workspace_id', 'assignee_id', 'created_at', 'id']).execute();
      // sort=waiting: the longest waiting first, those nobody waits on last. `(waiting_since is null)`
      // orders the same in both databases (false/0 first), where NULLS LAST would leave SQLite sorting.
      await db.schema.createIndex('conversations_waiting').on('conversations')
        .expression(sql`workspace_id, (waiting_since is null), waiting_since, id`).execute();

      await db.schema
        .createTable('saved_replies')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('saved_replies_workspace_created').on('saved_replies').columns(['workspace_id', 'created_at', 'id']).execute();

      // Since when each existing conversation waits: its first contact message that no agent message follows.
      await sql`
        update conversations set waiting_since = (
          select min(m.created_at) from messages m
          where m.conversation_id = conversations.id and m.sender_type = 'contact'
            and not exists (
              select 1 from messages a
              where a.conversation_id = m.conversation_id and a.sender_type = 'agent'
                and (a.created_at > m.created_at or (a.created_at = m.created_at and a.id > m.id))
            )
        )`.execute(db);
      await backfillLastMessages(db);
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('saved_replies').execute();
      await db.schema.dropIndex('conversations_waiting').execute();
      await db.schema.dropIndex('conversations_assignee').execute();
      await db.schema.alterTable('messages').dropColumn('internal').execute();
      for (const column of ['waiting_since', 'last_message_at', 'last_message_excerpt', 'last_message_sender_type', 'assignee_id']) {
        await db.schema.alterTable('conversations').dropColumn(column).execute();
      }
    },
  };
}
