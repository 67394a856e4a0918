// GET /api/v1/events/stream [ext]: the workspace's events as they commit, as Server-Sent Events
// (src/http/sse.ts): what the team's app listens to for its live inbox.
import { Type } from '@sinclair/typebox';
import { TEAM_STREAM_TYPES, isMemberEvent } from '../../events/event-types.js';
import type { LiveChannel, LiveEvent } from '../../events/live.js';
import { enumFilter } from '../filters.js';
import type { TypedApp } from '../route.js';
import { CsvFilter, StringEnum, Timestamp, Uuid, errorResponses } from '../schemas/common.js';
import { LastEventIdHeader, sendEventStream } from '../sse.js';

const EXAMPLE_PAYLOAD = JSON.stringify({
  type: 'message.created',
  timestamp: '2026-11-21T10:25:00.000Z',
  data: {
    id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8092', conversation_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8093', sender_type: 'contact',
    sender_id: null, sender_name: 'Ada', body: 'Export still crashes', created_at: '2026-11-21T10:25:00.000Z',
  },
});

/**
 * One event of the stream, as OpenAPI 3.2 describes Server-Sent Events (and Schemathesis checks
 * them): its `event`, `id` and `data` fields, `data` holding the webhook payload as JSON.
 */
const StreamEvent = Type.Object(
  {
    event: StringEnum(TEAM_STREAM_TYPES, { description: 'The event type' }),
    id: Type.Optional(Uuid('The event id: send the last one received as Last-Event-ID to resume after it. Absent on `presence`, which is never stored')),
    data: Type.String({
      description: 'The payload webhooks carry, as one line of JSON (the `webhooks` of this document show each type\'s `data`)',
      contentMediaType: 'application/json',
      contentSchema: {
        type: 'object',
        required: ['type', 'timestamp', 'data'],
        properties: { type: StringEnum(TEAM_STREAM_TYPES), timestamp: Timestamp('When the change was recorded'), data: Type.Object({}) },
      },
    }),
  },
  {
    required: ['event', 'data'],
    description: 'One event: `event: <type>`, `id: <event id>`, `data: <payload JSON>` (no `id` on `presence`)',
    examples: [{ event: 'message.created', id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', data: EXAMPLE_PAYLOAD }],
  },
);

/** A member's own event (a notification) that is not for the one streaming. */
const forOthers = (event: LiveEvent, memberId: string | null): boolean => isMemberEvent(event.type) && event.payload.data.member_id !== memberId;

export function eventRoutes(app: TypedApp, live: LiveChannel): void {
  app.get('/events/stream', {
    schema: {
      operationId: 'streamEvents',
      tags: ['Events'],
      summary: '[ext] Stream the workspace\'s events as they commit (Server-Sent Events; resume with Last-Event-ID)',
      description:
        'Server-Sent Events (`text/event-stream`): every event of the workspace as its change commits, whichever server ' +
        'process made it. Each is `event: <type>`, `id: <event id>` and `data:` the JSON payload webhooks carry ' +
        '(`{ type, timestamp, data }`, see `webhooks` in this document). The stream opens with `retry:` and an `id:` line ' +
        'marking where it starts; a comment (`: heartbeat`) comes every 20 s. Send `Last-Event-ID` (EventSource does when it ' +
        'reconnects) to receive first what was recorded after that id, each event once. The stream ends when the server ' +
        'stops or after an hour; reconnect with Last-Event-ID. Read-only keys may stream. [ext] `notification.created` (data: the ' +
        'Notification of GET /notifications and `member_id`) goes only to the stream of the member it is for; a key without a member ' +
        'receives none. [ext] `presence` (data: `{ conversation_id, member: { id, display_name }, state: viewing|typing|gone, expires_at }`, ' +
        'see POST /conversations/{id}/presence) is who is viewing or typing in a conversation now: it has no `id:`, is never replayed, ' +
        'and is forgotten at `expires_at` unless refreshed.',
      querystring: Type.Object({
        types: Type.Optional(CsvFilter('Only events of these types', TEAM_STREAM_TYPES)),
      }),
      headers: LastEventIdHeader,
      response: {
        200: {
          description: 'The event stream (it stays open)',
          content: { 'text/event-stream': { schema: StreamEvent } },
        },
        ...errorResponses(),
      },
    },
    handler: async (request, reply) => {
      const types = enumFilter('types', request.query.types, TEAM_STREAM_TYPES) ?? null;
      return sendEventStream(request, reply, {
        live,
        filter: { workspaceId: request.actor.workspaceId, types },
        frame: (event) => (forOthers(event, request.actor.member?.id ?? null) ? null : { event: event.type, data: event.payload }),
      });
    },
  });
}
