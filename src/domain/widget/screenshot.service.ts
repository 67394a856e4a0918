// Screenshots from the widget (docs/email.md, "Attachments"): a visitor sends an image into one of
// their conversations; it is kept in the attachment store and arrives as a message of theirs with
// the image attached. Only PNG, JPEG, GIF and WebP, recognised by their first bytes (what the
// client declares is not trusted), up to 5 MB.
import { invalidField } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { AttachmentStore } from '../../storage/attachment-store.js';
import type { VisitorConversationService } from './visitor-conversation.service.js';
import type { VisitorMessage } from './visitor.shapes.js';
import type { Visitor } from './widget-session.service.js';

export const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;
export const SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

const EXTENSIONS: Record<(typeof SCREENSHOT_TYPES)[number], string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** The image type the bytes are, by their signature; null for anything else. */
export function sniffImageType(bytes: Buffer): (typeof SCREENSHOT_TYPES)[number] | null {
  const starts = (signature: number[], at = 0) => signature.every((byte, i) => bytes[at + i] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

export interface ScreenshotServiceDeps {
  visitorConversations: Pick<VisitorConversationService, 'ensureVisible' | 'postMessage'>;
  store: Pick<AttachmentStore, 'put'>;
  clock: Clock;
}

export function createScreenshotService({ visitorConversations, store, clock }: ScreenshotServiceDeps) {
  return {
    /** Posts the image into the visitor's conversation as a message of theirs; 400 unless it is one of the image types. */
    async post(visitor: Visitor, conversationId: string, content: Buffer, filename: string | undefined): Promise<VisitorMessage> {
      await visitorConversations.ensureVisible(visitor, conversationId);
      const type = sniffImageType(content);
      if (!type) throw invalidField('body', `must be a PNG, JPEG, GIF or WebP image`);
      const name = filename?.trim().slice(0, 200) || `screenshot.${EXTENSIONS[type]}`;
      const sha256 = await store.put(content);
      const attachment = {
        id: newId(), workspace_id: visitor.workspaceId, contact_id: visitor.contactId, sha256, filename: name, content_type: type,
        size: content.length, created_at: clock.now(),
      };
      return visitorConversations.postMessage(visitor, conversationId, `[Screenshot: ${name}]`, [attachment]);
    },
  };
}

export type ScreenshotService = ReturnType<typeof createScreenshotService>;
