// Erasing a person (docs/privacy.md): the one function every part of it goes through, inside the
// caller's transaction. Their conversations stay for the backlog (the conversation write unit
// erases each, with its event); their messages in conversations not theirs (a mail into another
// person's thread) lose their words there; their upvotes leave the ideas' tallies (through the
// same unit); every copy of their data elsewhere goes, their files (mail attachments,
// screenshots) too; then their sessions and the contact itself. Every event it records is built
// after the data it shows was erased.
import type { ConversationRepository } from '../../db/repositories/conversation.repository.js';
import type { ErasureRepository } from '../../db/repositories/erasure.repository.js';
import type { Dialect } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import type { ConversationWrites } from '../conversations/conversation.writes.js';
import type { AttachmentService } from '../email/attachment.service.js';
import { flushStaged, type Work } from '../shared/unit-of-work.js';

export interface ContactErasureDeps {
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  conversations: Pick<ConversationRepository, 'listOfContact' | 'listWrittenInBy' | 'findById'>;
  erasure: ErasureRepository;
  writes: Pick<ConversationWrites, 'lock' | 'eraseContact' | 'eraseMessagesOf' | 'update'>;
  /** Their files: the records go in the transaction, the stored bytes once it commits. */
  attachmentFiles: Pick<AttachmentService, 'eraseAttachmentsOf'>;
  clock: Clock;
}

export async function eraseContact(deps: ContactErasureDeps, work: Work, workspaceId: string, contactId: string): Promise<void> {
  const { dialect, conversations, erasure, writes, attachmentFiles, clock } = deps;
  const { tx } = work;
  // The contacts lock: no widget visit or import re-uses the contact while it goes.
  await dialect.lockKeyInTransaction(tx, `contacts:${workspaceId}`);
  const owned = await conversations.listOfContact(workspaceId, contactId, tx);
  const elsewhere = await conversations.listWrittenInBy(workspaceId, contactId, tx);
  const sessions = await erasure.sessionsOf(workspaceId, contactId, tx);
  const upvotes = await erasure.upvotesOf(workspaceId, contactId, tx);
  // The lock of every conversation it writes, in one order (as a member's removal takes them), before its time is stamped.
  const written = [...owned, ...elsewhere].map(({ id }) => id);
  for (const id of [...new Set([...written, ...upvotes.map((row) => row.conversation_id)])].sort()) await writes.lock(work, id);
  const now = clock.now();
  // First the copies (old events among them, this transaction's written first), so that the events
  // recorded below stay; then their files, so that no conversation's event below lists them.
  await flushStaged(work);
  await erasure.deleteCopies(workspaceId, { contactId, conversationIds: owned.map(({ id }) => id), sessionIds: sessions.map(({ id }) => id) }, tx);
  await attachmentFiles.eraseAttachmentsOf(work, workspaceId, contactId);
  for (const conversation of owned) await writes.eraseContact(work, conversation, now);
  for (const conversation of elsewhere) await writes.eraseMessagesOf(work, conversation, contactId, now);
  // Last, so that an idea's event shows it as the erasure left it (one of theirs, or one they wrote in).
  for (const { conversation_id, votes } of upvotes) {
    const idea = (await conversations.findById(workspaceId, conversation_id, tx))!;
    await writes.update(work, idea, { upvotes: Math.max(0, idea.upvotes - votes), updated_at: now });
  }
  await erasure.deleteContact(workspaceId, contactId, tx);
}
