// A visitor's conversation as it happens (docs/widget.md): Server-Sent Events on the live channel
// (src/events/live.ts, through src/http/sse.ts), so the team's replies reach an open widget
// whichever server process took them. `event: message` carries the message as the visitor sees
// it, `event: status` the conversation's new status; a heartbeat comment every 20 s
// (LOOPDESK_SSE_HEARTBEAT_MS); Last-Event-ID resumes after the last event received.
import { Type } from '@sinclair/typebox';
import type { EventType } from '../../../events/event-types.js';
import type { LiveChannel, LiveEvent } from '../../../events/live.js';
import type { VisitorConversationService } from '../../../domain/widget/visitor-conversation.service.js';
import { toVisitorMessage } from '../../../domain/widget/visitor.shapes.js';
import { LastEventIdHeader, sendEventStream, type SseFrame } from '../../sse.js';
import type { TypedApp } from '../../route.js';
import { SESSION, WidgetItemParams, widgetErrors } from '../schemas.js';
import { visitorOf } from '../visitor-auth.js';

const TYPES: EventType[] = ['message.created', 'conversation.updated'];

/**
 * What the visitor is shown of an event of their conversation; null for what they do not see: the
 * team's internal notes, and changes of priority, assignee or upvotes.
 */
function visitorFrame({ type, payload }: LiveEvent): SseFrame | null {
  const data = payload.data as Record<string, any>;
  if (type === 'message.created') return data.internal === true ? null : { event: 'message', data: toVisitorMessage(data as never) };
  if (type === 'conversation.updated' && data.previous && 'status' in data.previous) return { event: 'status', data: { status: data.status } };
  return null;
}

export function conversationEventRoutes(app: TypedApp, conversations: VisitorConversationService, live: LiveChannel): void {
  app.get('/:widget_key/conversations/:id/events', {
    schema: {
      operationId: 'streamVisitorConversation',
      tags: ['Visitor conversations'],
      summary: 'Follow a conversation live',
      description:
        'Server-Sent Events: `event: message` (a new message, as GET shows messages) and `event: status` (`{ status }`) as they commit, ' +
        'from any server process; a `: heartbeat` comment every 20 seconds. Each event has an `id:`; reconnect with Last-Event-ID ' +
        '(EventSource does) to receive what was missed, once. The stream ends after an hour at most; reconnect.',
      security: SESSION,
      params: WidgetItemParams,
      headers: LastEventIdHeader,
      response: {
        200: { description: 'The event stream', content: { 'text/event-stream': { schema: Type.String() } } },
        ...widgetErrors(401),
      },
    },
    // A stream of a conversation the visitor cannot see is a 404, whatever Last-Event-ID says.
    config: { visitor: 'required', ensureExists: (request) => conversations.ensureVisible(visitorOf(request), (request.params as { id: string }).id) },
    handler: async (request, reply) => {
      const visitor = visitorOf(request);
      await conversations.ensureVisible(visitor, request.params.id);
      const filter = { workspaceId: visitor.workspaceId, conversationId: request.params.id.toLowerCase(), types: TYPES };
      return sendEventStream(request, reply, { live, filter, frame: visitorFrame });
    },
  });
}
