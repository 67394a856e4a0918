// Notifications and the mail about them (migration 0033). A notification's row names who is told,
// the conversation and who caused it; what it shows (the conversation, the actor's name) is joined
// in as it is now. Every read is the member's own: workspace and member are always given.
import type { Dialect } from '../dialect.js';
import type { Executor, Page, PageOf } from './executor.js';
import { claimDueJobs } from './job-claims.js';
import { countRows, readPage, type ListOrder } from './paging.js';
import type { ConversationTable, NotificationMailTable, NotificationTable } from '../schema.js';

export type NotificationRow = NotificationTable;
export type NotificationMailRow = NotificationMailTable;
export type ClaimedNotificationMail = Pick<NotificationMailTable, 'id' | 'workspace_id' | 'member_id' | 'conversation_id' | 'attempts' | 'created_at'> & { next_attempt_at: string };
export type NotificationMailOutcome = Pick<NotificationMailTable, 'status' | 'attempts' | 'last_error' | 'next_attempt_at' | 'updated_at'>;

/** A notification with what it shows: its conversation's summary fields and its actor's name. */
export interface ListedNotificationRow
  extends Pick<NotificationTable, 'id' | 'kind' | 'conversation_id' | 'actor_member_id' | 'actor_contact_id' | 'created_at' | 'read_at'>,
    Pick<ConversationTable, 'title' | 'type' | 'status' | 'priority' | 'ai_summary'> {
  actor_member_name: string | null;
  actor_contact_name: string | null;
  conversation_created_at: string;
}

/** Newest first, the id breaking ties (named by the table, for the joined read). */
const ORDER: ListOrder = [['n.created_at', 'desc'], ['n.id', 'desc']];

const CLAIMED_COLUMNS = ['id', 'workspace_id', 'member_id', 'conversation_id', 'attempts', 'created_at'] as const;

export function notificationRepository(db: Executor, dialect: Pick<Dialect, 'forUpdateSkipLocked'>) {
  /** The member's notifications (the unread ones only, when asked), by the index that orders them. */
  const owned = (tx: Executor, workspaceId: string, memberId: string, unread: boolean) => {
    const query = tx.selectFrom('notifications as n').where('n.member_id', '=', memberId).where('n.workspace_id', '=', workspaceId);
    return unread ? query.where('n.read_at', 'is', null) : query;
  };

  /** The rows of `ids`, with their conversation and actor. */
  const shown = (tx: Executor, workspaceId: string) =>
    tx.selectFrom('notifications as n')
      .innerJoin('conversations as c', (join) => join.onRef('c.id', '=', 'n.conversation_id').onRef('c.workspace_id', '=', 'n.workspace_id'))
      .leftJoin('members as am', (join) => join.onRef('am.id', '=', 'n.actor_member_id').onRef('am.workspace_id', '=', 'n.workspace_id'))
      .leftJoin('contacts as ac', (join) => join.onRef('ac.id', '=', 'n.actor_contact_id').onRef('ac.workspace_id', '=', 'n.workspace_id'))
      .select([
        'n.id', 'n.kind', 'n.conversation_id', 'n.actor_member_id', 'n.actor_contact_id', 'n.created_at', 'n.read_at',
        'am.display_name as actor_member_name', 'ac.name as actor_contact_name',
        'c.title', 'c.type', 'c.status', 'c.priority', 'c.ai_summary', 'c.created_at as conversation_created_at',
      ])
      .where('n.workspace_id', '=', workspaceId);

  return {
    async insert(rows: readonly NotificationRow[], tx: Executor): Promise<void> {
      if (rows.length > 0) await tx.insertInto('notifications').values([...rows]).execute();
    },

    /** Newest first; the page's ids are chosen along the member's index, then read with what they show. */
    async list(workspaceId: string, memberId: string, unread: boolean, page: Page, tx: Executor = db): Promise<PageOf<ListedNotificationRow>> {
      const scoped = owned(tx, workspaceId, memberId, unread);
      return readPage(ORDER, page, () => countRows(scoped), (read) => {
        const ids = read.sliced(scoped.select('n.id'));
        return read.sorted(shown(tx, workspaceId).where('n.id', 'in', ids)).execute();
      });
    },

    /** One notification as the list shows it (the event of a new one). */
    async findShown(workspaceId: string, id: string, tx: Executor = db): Promise<ListedNotificationRow | undefined> {
      return shown(tx, workspaceId).where('n.id', '=', id).executeTakeFirst();
    },

    /** Marks read those of `ids` (all, when null) that are the member's and unread. */
    /** Which of `ids` are the member's own notifications, read or not. */
    async ownedOf(workspaceId: string, memberId: string, ids: readonly string[], tx: Executor = db): Promise<string[]> {
      const rows = await tx.selectFrom('notifications').select('id')
        .where('workspace_id', '=', workspaceId).where('member_id', '=', memberId).where('id', 'in', ids).execute();
      return rows.map((row) => row.id);
    },

    async markRead(workspaceId: string, memberId: string, ids: readonly string[] | null, now: string, tx: Executor = db): Promise<void> {
      let query = tx.updateTable('notifications').set({ read_at: now })
        .where('member_id', '=', memberId).where('workspace_id', '=', workspaceId).where('read_at', 'is', null);
      if (ids) query = query.where('id', 'in', ids);
      await query.execute();
    },

    /** The member's notifications in a conversation since `since` (a mail's window), oldest first. */
    async inWindow(workspaceId: string, memberId: string, conversationId: string, since: string, tx: Executor = db): Promise<ListedNotificationRow[]> {
      return shown(tx, workspaceId).where('n.member_id', '=', memberId).where('n.conversation_id', '=', conversationId)
        .where('n.created_at', '>=', since).orderBy('n.created_at', 'asc').orderBy('n.id', 'asc').execute();
    },

    /** Whether a mail to the member about the conversation was started after `since`. */
    async mailedSince(workspaceId: string, memberId: string, conversationId: string, since: string, tx: Executor): Promise<boolean> {
      const row = await tx.selectFrom('notification_mails').select('id')
        .where('member_id', '=', memberId).where('conversation_id', '=', conversationId).where('created_at', '>', since)
        .where('workspace_id', '=', workspaceId).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    async insertMail(row: NotificationMailRow, tx: Executor): Promise<void> {
      await tx.insertInto('notification_mails').values(row).execute();
    },

    claimDueMails(now: string, leaseUntil: string, limit: number, tx: Executor): Promise<ClaimedNotificationMail[]> {
      return claimDueJobs<ClaimedNotificationMail>(dialect, tx, 'notification_mails', CLAIMED_COLUMNS, { kind: 'notification', now, leaseUntil, limit });
    },

    /** Writes a send's outcome while its claim's lease holds. */
    async recordMailOutcome(job: Pick<ClaimedNotificationMail, 'id' | 'next_attempt_at'>, outcome: NotificationMailOutcome, tx: Executor = db): Promise<void> {
      await tx.updateTable('notification_mails').set(outcome)
        .where('id', '=', job.id).where('status', '=', 'pending').where('next_attempt_at', '=', job.next_attempt_at).execute();
    },

    /** Where a notification mail goes and how its times are shown: the member's address and settings. */
    async recipientOf(workspaceId: string, memberId: string, tx: Executor = db) {
      return tx.selectFrom('members as m').innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['u.email', 'm.display_name', 'm.time_zone', 'm.notify_email'])
        .where('m.workspace_id', '=', workspaceId).where('m.id', '=', memberId).executeTakeFirst();
    },
  };
}

export type NotificationRepository = ReturnType<typeof notificationRepository>;
