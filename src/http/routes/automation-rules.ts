import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AutomationRuleService } from '../../domain/automation/automation-rule.service.js';
import type { TypedApp } from '../route.js';
import { AutomationRule, CreateAutomationRuleBody, UpdateAutomationRuleBody } from '../schemas/automation.js';
import { DataOf, IdParams, ListOf, PageQuery, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';

const RuleParams = IdParams('Automation rule id (UUID)');
const TAGS = ['Automation rules'];
const WRITERS = ' Needs an owner or admin key or session, or a key without a member (403 otherwise).';

/** [ext] Automation rules: everyone reads them, the settings role writes them (docs/automation.md). */
export function automationRuleRoutes(app: TypedApp, rules: AutomationRuleService): void {
  const writer = { onRequest: async (request: FastifyRequest) => rules.authorizeWrite(request.actor) };
  const ensureExists = (request: FastifyRequest) => rules.ensureExists(request.actor, (request.params as { id: string }).id);

  app.get('/automation-rules', {
    schema: {
      operationId: 'listAutomationRules', tags: TAGS, summary: '[ext] List automation rules',
      description: 'The workspace\'s rules in the order they run: position (then created_at, then id).',
      querystring: Type.Object(PageQuery),
      response: { 200: ListOf(AutomationRule, 'A page of automation rules'), ...errorResponses() },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await rules.list(request.actor, page), page);
    },
  });

  app.post('/automation-rules', {
    ...writer,
    schema: {
      operationId: 'createAutomationRule', tags: TAGS, summary: '[ext] Create an automation rule',
      description: 'Actions to run on a conversation when an event of `event` happens to it and every condition holds. It goes to the end ' +
        `of the order, or to \`position\` (the rules from there on move down one). A problem with a condition or action is named by its place (\`actions[2].member_id\`).${WRITERS}`,
      body: CreateAutomationRuleBody,
      response: { 201: DataOf(AutomationRule, 'The created rule'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await rules.create(request.actor, request.body) };
    },
  });

  app.get('/automation-rules/:id', {
    schema: {
      operationId: 'getAutomationRule', tags: TAGS, summary: '[ext] Get an automation rule',
      description: 'One rule, with how many times it ran and when last.',
      params: RuleParams,
      response: { 200: DataOf(AutomationRule, 'The rule'), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await rules.get(request.actor, request.params.id) }),
  });

  app.patch('/automation-rules/:id', {
    ...writer,
    schema: {
      operationId: 'updateAutomationRule', tags: TAGS, summary: '[ext] Update an automation rule',
      description: 'Changes the fields given (`conditions` and `actions` replaced whole); a new `position` moves it there and shifts the rules ' +
        `between its old and new places by one. updated_at changes only when a value changes.${WRITERS}`,
      params: RuleParams,
      body: UpdateAutomationRuleBody,
      response: { 200: DataOf(AutomationRule, 'The updated rule'), ...writeErrors(404) },
    },
    config: { ensureExists },
    handler: async (request) => ({ data: await rules.update(request.actor, request.params.id, request.body) }),
  });

  app.delete('/automation-rules/:id', {
    ...writer,
    schema: {
      operationId: 'deleteAutomationRule', tags: TAGS, summary: '[ext] Delete an automation rule',
      description: `Deletes it; the rules after it move up one place; events still waiting for it skip it.${WRITERS}`,
      params: RuleParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await rules.remove(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });
}
