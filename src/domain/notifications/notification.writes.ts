// Creating notifications (docs/inbox.md, "Notifications"), called by the conversation write unit in
// the transaction of what they tell of (an assignment, a contact's message, a note), so one exists
// exactly when that committed. Each records notification.created, which the team stream carries to
// its member alone; for a member who wants mail, it starts one unless a mail about the same
// conversation started within the last 10 minutes (that mail's window takes it in, or it was sent).
// Nobody is told of their own doing: assigning oneself, mentioning oneself.
import type { ContactRepository } from '../../db/repositories/contact.repository.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { MessageRow } from '../../db/repositories/message.repository.js';
import type { NotificationRepository, NotificationRow } from '../../db/repositories/notification.repository.js';
import type { Outbox } from '../../events/outbox.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Work } from '../shared/unit-of-work.js';
import { mentionedMembers } from './mentions.js';
import { toNotification, type NotificationKind } from './notification.shapes.js';

/** At most one mail per member and conversation in this long. */
export const MAIL_WINDOW_MS = 10 * 60_000;

/** Who caused it, by id: a member, a contact, or nobody the team can name (a key without a member). */
export interface ActorIds {
  memberId?: string | null;
  contactId?: string | null;
}

export interface NotificationWritesDeps {
  notifications: Pick<NotificationRepository, 'insert' | 'findShown' | 'mailedSince' | 'insertMail'>;
  members: Pick<MemberRepository, 'listAll' | 'settingsOf'>;
  contacts: Pick<ContactRepository, 'findById'>;
  outbox: Outbox;
  clock: Clock;
  /** Whether mail can be sent (LOOPDESK_SMTP_URL); without it no mail is started. */
  mailEnabled: boolean;
}

export function createNotificationWrites({ notifications, members, contacts, outbox, clock, mailEnabled }: NotificationWritesDeps) {
  /** A mail for the member about the conversation, unless they want none or one started in the window. */
  async function startMail(work: Work, row: NotificationRow): Promise<void> {
    if (!mailEnabled || !(await members.settingsOf(row.workspace_id, row.member_id, work.tx))?.notify_email) return;
    const windowStart = new Date(Date.parse(row.created_at) - MAIL_WINDOW_MS).toISOString();
    if (await notifications.mailedSince(row.workspace_id, row.member_id, row.conversation_id, windowStart, work.tx)) return;
    await notifications.insertMail({
      id: newId(), workspace_id: row.workspace_id, member_id: row.member_id, conversation_id: row.conversation_id, kind: 'notification',
      status: 'pending', attempts: 0, last_error: null, next_attempt_at: row.created_at, created_at: row.created_at, updated_at: row.created_at,
    }, work.tx);
  }

  async function notify(work: Work, workspaceId: string, conversationId: string, kind: NotificationKind, memberIds: readonly string[], actor: ActorIds): Promise<void> {
    const told = memberIds.filter((id) => id !== actor.memberId);
    if (told.length === 0) return;
    const now = clock.now();
    const rows: NotificationRow[] = told.map((memberId) => ({
      id: newId(), workspace_id: workspaceId, member_id: memberId, kind, conversation_id: conversationId,
      actor_member_id: actor.memberId ?? null, actor_contact_id: actor.contactId ?? null, created_at: now, read_at: null,
    }));
    await notifications.insert(rows, work.tx);
    const shown = await Promise.all(rows.map(async (row) => ({ ...toNotification((await notifications.findShown(workspaceId, row.id, work.tx))!), member_id: row.member_id })));
    await outbox.record(work, ...shown.map((data) => ({ type: 'notification.created' as const, workspaceId, data })));
    for (const row of rows) await startMail(work, row);
  }

  return {
    /** The conversation was assigned to `assigneeId` by `by` (a member, or null: a key without one). */
    assigned: (work: Work, workspaceId: string, conversationId: string, assigneeId: string, by: string | null): Promise<void> =>
      notify(work, workspaceId, conversationId, 'assigned', [assigneeId], { memberId: by }),

    /**
     * A message was added: a contact's tells the conversation's assignee (`assigneeId`, as the
     * conversation write unit read it); a note tells the members it mentions.
     */
    async messageAdded(work: Work, row: MessageRow, assigneeId: string | null): Promise<void> {
      const { workspace_id: workspaceId, conversation_id: conversationId } = row;
      if (row.sender_type === 'contact') {
        if (!assigneeId) return;
        // A conversation imported without a contact names its API key as the sender: nobody to show.
        const contact = await contacts.findById(workspaceId, row.sender_id, work.tx);
        await notify(work, workspaceId, conversationId, 'message', [assigneeId], { contactId: contact?.id ?? null });
      } else if (row.internal === 1 && row.body.includes('@')) {
        const team = await members.listAll(workspaceId, work.tx);
        const author = team.find((member) => member.id === row.sender_id);
        await notify(work, workspaceId, conversationId, 'mention', mentionedMembers(row.body, team), { memberId: author?.id ?? null });
      }
    },
  };
}

export type NotificationWrites = ReturnType<typeof createNotificationWrites>;
