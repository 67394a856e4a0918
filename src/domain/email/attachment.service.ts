// Attachments: downloads within the workspace, and their erasure with the contact who sent them
// (docs/email.md). Records go in the erasing transaction; the stored bytes go after it commits,
// once no record of any workspace names their hash (identical files are stored once).
import type { Db } from '../../db/database.js';
import type { AttachmentRepository, AttachmentRow } from '../../db/repositories/attachment.repository.js';
import { notFound } from '../../errors.js';
import { parseUuid } from '../../lib/ids.js';
import type { AttachmentStore } from '../../storage/attachment-store.js';
import type { Actor } from '../accounts/actor.js';
import type { Work } from '../shared/unit-of-work.js';

export interface AttachmentServiceDeps {
  db: Db;
  attachments: Pick<AttachmentRepository, 'findById' | 'deleteOfContact' | 'unreferenced'>;
  store: Pick<AttachmentStore, 'get' | 'delete'>;
  onError: (error: unknown) => void;
}

export function createAttachmentService({ db, attachments, store, onError }: AttachmentServiceDeps) {
  return {
    /** An attachment of the actor's workspace with its bytes; not_found otherwise (or when its bytes are gone). */
    async download(actor: Actor, id: string): Promise<{ attachment: AttachmentRow; content: Buffer }> {
      const attachmentId = parseUuid(id);
      const attachment = attachmentId ? await attachments.findById(actor.workspaceId, attachmentId) : undefined;
      const content = attachment ? await store.get(attachment.sha256) : null;
      if (!attachment || !content) throw notFound('attachment');
      return { attachment, content };
    },

    /**
     * Erases the attachments a contact sent (mail, widget uploads), in the erasing transaction
     * `work`; their stored files are deleted once it commits, unless another record still names them.
     */
    async eraseAttachmentsOf(work: Work, workspaceId: string, contactId: string): Promise<void> {
      const hashes = await attachments.deleteOfContact(workspaceId, contactId, work.tx);
      if (hashes.length === 0) return;
      work.afterCommit(() => {
        void (async () => {
          for (const hash of await attachments.unreferenced(hashes, db)) await store.delete(hash);
        })().catch(onError);
      });
    },
  };
}

export type AttachmentService = ReturnType<typeof createAttachmentService>;
