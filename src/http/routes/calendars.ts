import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { DUE_HORIZON_YEARS } from '../../domain/service-levels/business-time.js';
import type { CalendarService } from '../../domain/service-levels/calendar.service.js';
import type { TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, PageQuery, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import { Calendar, CalendarDue, CreateCalendarBody, DueQuery, UpdateCalendarBody } from '../schemas/service-levels.js';

const CalendarParams = IdParams('Calendar id (UUID)');
const TAGS = ['Calendars'];
const WRITERS = ' Needs an owner or admin key or session, or a key without a member (403 otherwise).';

/** [ext] Business hours: everyone reads them and asks for due times, the settings role writes them (docs/service-levels.md). */
export function calendarRoutes(app: TypedApp, calendars: CalendarService): void {
  // Right after authentication, like the settings plugins' hook: an agent gets 403 before any lookup or validation.
  const writer = { onRequest: async (request: FastifyRequest) => calendars.authorizeWrite(request.actor) };
  const ensureExists = (request: FastifyRequest) => calendars.ensureExists(request.actor, (request.params as { id: string }).id);

  app.get('/calendars', {
    schema: {
      operationId: 'listCalendars', tags: TAGS, summary: '[ext] List calendars',
      description: 'The workspace\'s calendars of business hours, oldest first (created_at, then id).',
      querystring: Type.Object(PageQuery),
      response: { 200: ListOf(Calendar, 'A page of calendars'), ...errorResponses() },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await calendars.list(request.actor, page), page);
    },
  });

  app.post('/calendars', {
    ...writer,
    schema: {
      operationId: 'createCalendar', tags: TAGS, summary: '[ext] Create a calendar',
      description: `Business hours in an IANA time zone, per weekday, with holidays; SLA policies measure their targets in one.${WRITERS}`,
      body: CreateCalendarBody,
      response: { 201: DataOf(Calendar, 'The created calendar'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await calendars.create(request.actor, request.body) };
    },
  });

  app.get('/calendars/:id', {
    schema: {
      operationId: 'getCalendar', tags: TAGS, summary: '[ext] Get a calendar',
      description: 'One calendar: its zone, hours and holidays.',
      params: CalendarParams,
      response: { 200: DataOf(Calendar, 'The calendar'), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await calendars.get(request.actor, request.params.id) }),
  });

  app.get('/calendars/:id/due', {
    schema: {
      operationId: 'getCalendarDue', tags: TAGS, summary: '[ext] When N seconds of open time will have passed',
      description: 'The instant when `seconds` of the calendar\'s open time have passed since `from`, in its time zone: ' +
        'local hours, daylight-saving changes (an interval a change shortens or lengthens counts its real length) and holidays ' +
        `included. A calendar never open, or not open that long within ${DUE_HORIZON_YEARS} years, is a 400 on \`seconds\`.`,
      params: CalendarParams,
      querystring: DueQuery,
      response: { 200: DataOf(CalendarDue, 'The due time'), ...errorResponses(404) },
    },
    config: { ensureExists },
    handler: async (request) => ({ data: await calendars.due(request.actor, request.params.id, request.query) }),
  });

  app.patch('/calendars/:id', {
    ...writer,
    schema: {
      operationId: 'updateCalendar', tags: TAGS, summary: '[ext] Update a calendar',
      description: `Changes its name, zone, hours and/or holidays (each replaced whole); updated_at changes only when a value changes. ` +
        `Policies measuring in it use the new hours from then on.${WRITERS}`,
      params: CalendarParams,
      body: UpdateCalendarBody,
      response: { 200: DataOf(Calendar, 'The updated calendar'), ...writeErrors(404) },
    },
    config: { ensureExists },
    handler: async (request) => ({ data: await calendars.update(request.actor, request.params.id, request.body) }),
  });

  app.delete('/calendars/:id', {
    ...writer,
    schema: {
      operationId: 'deleteCalendar', tags: TAGS, summary: '[ext] Delete a calendar',
      description: `Deletes it; a calendar an SLA policy measures in is a 400 naming those policies.${WRITERS}`,
      params: CalendarParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await calendars.remove(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });
}
