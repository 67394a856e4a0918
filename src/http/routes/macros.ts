import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { MacroService } from '../../domain/automation/macro.service.js';
import type { TypedApp } from '../route.js';
import { CreateMacroBody, Macro, UpdateMacroBody } from '../schemas/automation.js';
import { DataOf, IdParams, ListOf, PageQuery, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import { ConversationDetail } from '../schemas/conversation.js';

const MacroParams = IdParams('Macro id (UUID)');
const TAGS = ['Macros'];

/** [ext] Macros: any member reads, writes and runs them (docs/automation.md). */
export function macroRoutes(app: TypedApp, macros: MacroService): void {
  const ensureExists = (request: FastifyRequest) => macros.ensureExists(request.actor, (request.params as { id: string }).id);

  app.get('/macros', {
    schema: {
      operationId: 'listMacros', tags: TAGS, summary: '[ext] List macros',
      description: 'The workspace\'s macros, oldest first.',
      querystring: Type.Object(PageQuery),
      response: { 200: ListOf(Macro, 'A page of macros'), ...errorResponses() },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await macros.list(request.actor, page), page);
    },
  });

  app.post('/macros', {
    schema: {
      operationId: 'createMacro', tags: TAGS, summary: '[ext] Create a macro',
      description: 'A named list of actions (the rules\' vocabulary); a problem with an action is named by its place (`actions[0].member_id`).',
      body: CreateMacroBody,
      response: { 201: DataOf(Macro, 'The created macro'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await macros.create(request.actor, request.body) };
    },
  });

  app.get('/macros/:id', {
    schema: {
      operationId: 'getMacro', tags: TAGS, summary: '[ext] Get a macro',
      description: 'One macro.',
      params: MacroParams,
      response: { 200: DataOf(Macro, 'The macro'), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await macros.get(request.actor, request.params.id) }),
  });

  app.patch('/macros/:id', {
    schema: {
      operationId: 'updateMacro', tags: TAGS, summary: '[ext] Update a macro',
      description: 'Changes the fields given (`actions` replaced whole); updated_at changes only when a value changes.',
      params: MacroParams,
      body: UpdateMacroBody,
      response: { 200: DataOf(Macro, 'The updated macro'), ...writeErrors(404) },
    },
    config: { ensureExists },
    handler: async (request) => ({ data: await macros.update(request.actor, request.params.id, request.body) }),
  });

  app.delete('/macros/:id', {
    schema: {
      operationId: 'deleteMacro', tags: TAGS, summary: '[ext] Delete a macro',
      description: 'Deletes it.',
      params: MacroParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await macros.remove(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });

  app.post('/conversations/:id/macros/:macro_id', {
    schema: {
      operationId: 'runMacro', tags: TAGS, summary: '[ext] Run a macro on a conversation',
      description: 'Runs the macro\'s actions in order, in one transaction (all or nothing), as the caller: notes and replies are sent as the ' +
        'member, and the events carry `actor` `{ type: "member", id }` (`api_key` for a key without a member). A member or saved reply deleted since ' +
        'the macro was saved is a 400 naming the action (`actions[1].member_id`).',
      params: Type.Object({ id: Type.String({ description: 'Conversation id (UUID)' }), macro_id: Type.String({ description: 'Macro id (UUID)' }) }, { additionalProperties: false }),
      response: { 200: DataOf(ConversationDetail, 'The conversation after every action'), ...writeErrors(404) },
    },
    handler: async (request) => ({ data: await macros.run(request.actor, request.params.id, request.params.macro_id) }),
  });
}
