import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ISSUE_STATUSES, PRIORITIES } from '../../domain/shared/enums.js';
import type { IssueDedupService } from '../../domain/issues/issue-dedup.service.js';
import type { IssueService } from '../../domain/issues/issue.service.js';
import { checkAll } from '../../errors.js';
import { enumFilter, idFilter, singleIdFilter, tagFilter } from '../filters.js';
import { mountWithAlias, type TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, Ref, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import {
  CreateIssueBody, Issue, IssueListItem, IssueListQuery, LinkConversationBody, MaybeIssueBody, DeduplicatingCreateResult,
  UpdateIssueBody,
} from '../schemas/issue.js';

const IssueParams = IdParams('Issue UUID or shortcode (case-insensitive, e.g. app-7)');
const issueExists = (issues: IssueService) => (request: FastifyRequest) =>
  issues.find(request.actor, (request.params as { id: string }).id);

export function issueRoutes(app: TypedApp, issues: IssueService, dedup: IssueDedupService): void {
  mountWithAlias(app, '/issues', '/actions', (scope, mount) => {
    scope.get(mount.path, {
      schema: mount.schema({
        operationId: 'listIssues',
        tags: ['Issues'],
        summary: 'List issues',
        description:
          'Issues ordered by created_at descending, each with linked_conversations_count. Comma-separated filters ' +
          'combine with AND across parameters and OR within one.',
        querystring: IssueListQuery,
        response: { 200: ListOf(IssueListItem, 'A page of issues'), ...errorResponses() },
      }),
      handler: async (request) => {
        const { query } = request;
        const page = pageOf(query);
        const [productId, statuses, priorities, assignees] = await checkAll([
          () => singleIdFilter('product_id', query.product_id),
          () => enumFilter('status', query.status, ISSUE_STATUSES),
          () => enumFilter('priority', query.priority, PRIORITIES),
          () => idFilter('assignee_id', query.assignee_id, ['none', 'me'] as const),
        ] as const);
        const issuesPage = await issues.list(
          request.actor,
          {
            productId,
            statuses,
            priorities,
            assigneeIds: assignees.ids,
            assignedToMe: assignees.given.has('me'),
            unassigned: assignees.given.has('none'),
            tagKeys: tagFilter(query.tag),
          },
          page,
        );
        return listBody(issuesPage, page);
      },
    });

    scope.post(mount.path, {
      schema: mount.schema({
        operationId: 'createIssue',
        tags: ['Issues'],
        summary: 'Create an issue',
        description:
          'Creates an issue with the next shortcode of its product\'s prefix. status defaults to pending, priority ' +
          'to normal; assignee_id must be a member of this workspace (or [ext] `me`).',
        body: CreateIssueBody,
        response: { 201: DataOf(Issue, 'The created issue'), ...writeErrors() },
      }),
      handler: async (request, reply) => {
        reply.code(201);
        return { data: await issues.create(request.actor, request.body) };
      },
    });

    scope.get(`${mount.path}/:id`, {
      schema: mount.schema({
        operationId: 'getIssue',
        tags: ['Issues'],
        summary: 'Get an issue',
        description: 'One issue by UUID or shortcode, with its linked conversations.',
        params: IssueParams,
        response: { 200: DataOf(Issue, 'The issue'), ...errorResponses(404) },
      }),
      handler: async (request) => ({ data: await issues.get(request.actor, request.params.id) }),
    });

    scope.patch(`${mount.path}/:id`, {
      schema: mount.schema({
        operationId: 'updateIssue',
        tags: ['Issues'],
        summary: 'Update an issue',
        description:
          'Changes the given fields. Any status may be set from any status. assignee_id takes a member id, `me` or ' +
          'null; "" or null clears description and resolution_comment. updated_at changes only when something does.',
        params: IssueParams,
        body: UpdateIssueBody,
        response: { 200: DataOf(Issue, 'The updated issue'), ...writeErrors(404) },
      }),
      config: { ensureExists: issueExists(issues) },
      handler: async (request) => ({ data: await issues.update(request.actor, request.params.id, request.body) }),
    });
  });

  app.post('/issues/maybe', {
    schema: {
      operationId: 'createIssueUnlessDuplicate',
      tags: ['Issues'],
      summary: 'Create an issue unless it already exists (deduplicating create)',
      description:
        'Compares the title and description with the product\'s pending, in_progress and icebox issues, across ' +
        'paraphrase and translation. On a match returns 200 with the existing issue; otherwise creates one (201). ' +
        'Either way the call is recorded as a source of the returned issue (api_source_id). status, priority and ' +
        'assignee_id are used only on create. [ext] The answer also says why: score, detector, and the open issues ' +
        'that came close without matching (possible_duplicates). A detection failure is a 500 with nothing written: ' +
        'retry, or use POST /api/v1/issues to bypass detection.',
      body: MaybeIssueBody,
      response: {
        200: Ref(DeduplicatingCreateResult, { description: 'An existing issue matched' }),
        201: Ref(DeduplicatingCreateResult, { description: 'No match: a new issue was created' }),
        ...writeErrors(),
      },
    },
    handler: async (request, reply) => {
      const result = await dedup.createMaybe(request.actor, request.body);
      reply.code(result.matchedExisting ? 200 : 201);
      return {
        data: result.issue, matched_existing: result.matchedExisting, api_source_id: result.apiSourceId,
        score: result.score, detector: result.detector, possible_duplicates: result.possibleDuplicates,
      };
    },
  });

  app.post('/issues/:id/conversations', {
    schema: {
      operationId: 'linkConversationToIssue',
      tags: ['Issues'],
      summary: '[ext] Link a conversation to an issue',
      description: 'Links a conversation of the issue\'s product. Linking an already linked conversation changes nothing.',
      params: IssueParams,
      body: LinkConversationBody,
      response: { 200: DataOf(Issue, 'The issue with its linked conversations'), ...writeErrors(404) },
    },
    config: { ensureExists: issueExists(issues) },
    // The answer is the issue: this tells clients (and Schemathesis) which id the unlink takes.
    links: {
      200: {
        unlinkConversation: {
          operationId: 'unlinkConversationFromIssue',
          parameters: { id: '$request.path.id', conversation_id: '$request.body#/conversation_id' },
        },
      },
    },
    handler: async (request) => ({
      data: await issues.linkConversation(request.actor, request.params.id, request.body.conversation_id),
    }),
  });

  app.delete('/issues/:id/conversations/:conversation_id', {
    schema: {
      operationId: 'unlinkConversationFromIssue',
      tags: ['Issues'],
      summary: '[ext] Unlink a conversation from an issue',
      description: 'Removes the link; unlinking a conversation that is not linked changes nothing.',
      params: Type.Object({
        id: Type.String({ description: 'Issue UUID or shortcode' }),
        conversation_id: Type.String({ description: 'Conversation UUID' }),
      }),
      response: { 200: DataOf(Issue, 'The issue with its linked conversations'), ...writeErrors(404) },
    },
    handler: async (request) => ({
      data: await issues.unlinkConversation(request.actor, request.params.id, request.params.conversation_id),
    }),
  });
}
