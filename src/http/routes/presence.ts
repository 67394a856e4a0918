// POST /api/v1/conversations/{id}/presence [ext]: who is viewing or typing in a conversation, for
// the team stream (docs/automation.md, "Collision").
import type { RateLimiter } from '../../domain/rate-limits/token-bucket.js';
import type { PresenceService } from '../../domain/conversations/presence.service.js';
import { AppError } from '../../errors.js';
import type { TypedApp } from '../route.js';
import { DataOf, IdParams, writeErrors } from '../schemas/common.js';
import { Presence, PresenceBody } from '../schemas/presence.js';

/**
 * Announcements per minute per API key or session, beside the API's own limit: a page refreshes
 * every 10 s and announces typing at most every 3 s (about 26 a minute), so this leaves room for a
 * few open pages while no client can flood every stream of the workspace.
 */
export const PRESENCE_PER_MINUTE = 120;

export function presenceRoutes(app: TypedApp, presence: PresenceService, limiter: RateLimiter | null): void {
  app.post('/conversations/:id/presence', {
    schema: {
      operationId: 'announcePresence', tags: ['Conversations'], summary: '[ext] Announce that you are viewing or typing in a conversation',
      description:
        'Sends a `presence` event on the team stream (GET /events/stream) to every member\'s open stream, whichever server process ' +
        'holds it: `{ conversation_id, member: { id, display_name }, state, expires_at }`. Nothing is stored, replayed or sent to ' +
        'webhooks. It holds for 30 s: send `viewing` again every ~10 s while the conversation is open, `typing` (at most every few ' +
        `seconds) while writing a reply, and \`gone\` on leaving. At most ${PRESENCE_PER_MINUTE} a minute per API key or session (429 ` +
        'with Retry-After beyond). Needs a member (a session, or a key tied to a member: 403 otherwise); read-only keys may not announce (403).',
      params: IdParams('Conversation id (UUID)'),
      body: PresenceBody,
      response: { 200: DataOf(Presence, 'What the team stream was told'), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      const decision = limiter ? await limiter.take(request.actor.credentialId) : null;
      if (decision && !decision.allowed) {
        reply.header('Retry-After', String(decision.retryAfter));
        throw new AppError('forbidden', `too many presence announcements: at most ${PRESENCE_PER_MINUTE} a minute; retry in ${decision.retryAfter} s`, { status: 429 });
      }
      return { data: await presence.announce(request.actor, request.params.id, request.body.state) };
    },
  });
}
