// [ext] Collision (docs/automation.md): who is viewing or typing in a conversation, announced on
// the team stream as a `presence` event. Nothing is stored: each announcement is a passing event
// (src/events/live.ts) that holds until its `expires_at`; a client refreshes it while the page is
// open and sends `gone` when it leaves. The server keeps no state, so every process sees the same.
import type { ConversationRepository } from '../../db/repositories/conversation.repository.js';
import { AppError, notFound } from '../../errors.js';
import type { LiveChannel } from '../../events/live.js';
import type { Clock } from '../../lib/clock.js';
import { parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';

export const PRESENCE_STATES = ['viewing', 'typing', 'gone'] as const;
export type PresenceState = (typeof PRESENCE_STATES)[number];

/** How long an announcement holds without a refresh. */
export const PRESENCE_TTL_MS = 30_000;

export interface Presence {
  conversation_id: string;
  member: { id: string; display_name: string | null };
  state: PresenceState;
  /** When it no longer holds: 30 s on, or at once for `gone`. */
  expires_at: string;
}

export interface PresenceDeps {
  conversations: Pick<ConversationRepository, 'findById'>;
  live: Pick<LiveChannel, 'pass'>;
  clock: Clock;
}

export function createPresenceService({ conversations, live, clock }: PresenceDeps) {
  return {
    /** Tells the workspace's streams that the actor's member is viewing, typing in or has left the conversation. */
    async announce(actor: Actor, id: string, state: PresenceState): Promise<Presence> {
      if (!actor.member) {
        throw new AppError('forbidden', 'presence is a member\'s: use a session or an API key tied to a member');
      }
      const conversationId = parseUuid(id);
      const conversation = conversationId ? await conversations.findById(actor.workspaceId, conversationId) : undefined;
      if (!conversation) throw notFound('conversation');
      const now = clock.now();
      const presence: Presence = {
        conversation_id: conversation.id,
        member: { id: actor.member.id, display_name: actor.member.display_name },
        state,
        expires_at: state === 'gone' ? now : new Date(Date.parse(now) + PRESENCE_TTL_MS).toISOString(),
      };
      await live.pass({
        id: null,
        workspaceId: actor.workspaceId,
        type: 'presence',
        conversationId: conversation.id,
        payload: { type: 'presence', timestamp: now, data: { ...presence } },
      });
      return presence;
    },
  };
}

export type PresenceService = ReturnType<typeof createPresenceService>;
