// ldk mcp, driven by the MCP SDK's own client over stdio: its tools, their schemas (valid JSON
// Schema, derived from the served OpenAPI document), a call of each, and errors as tool errors
// carrying the API's detail.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createMacro } from '../helpers/automation.js';
import { createIssue, createProduct, importConversation } from '../helpers/factories.js';
import { LDK, ldkEnvironment, type ListeningContext, listeningContext, tempDir } from '../helpers/ldk.js';

const TOOLS = [
  'whoami', 'list_products', 'list_members', 'search', 'list_issues', 'get_issue', 'create_issue', 'update_issue',
  'list_conversations', 'report_summary', 'get_conversation', 'update_conversation', 'assign_conversation', 'add_note', 'list_macros', 'run_macro',
  'reply_to_conversation', 'list_notifications', 'mark_notifications_read', 'list_suggestions', 'accept_suggestion', 'dismiss_suggestion', 'list_releases', 'create_release',
];

/** An MCP client connected to `ldk mcp`, started in `cwd` with `env`. */
async function connect(env: Record<string, string>, cwd = tempDir('ldk-mcp-')): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [LDK, 'mcp'],
    cwd,
    env: ldkEnvironment({ HOME: tempDir('ldk-home-'), ...env }) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'loopdesk-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A successful tool result: its structured content, which its text repeats. */
function answer(result: unknown): any {
  const { isError, content, structuredContent } = result as CallToolResult;
  assert.ok(!isError, JSON.stringify(content));
  assert.equal(content[0].type, 'text');
  assert.deepEqual(JSON.parse((content[0] as { text: string }).text), structuredContent);
  return structuredContent;
}

/** A tool error's text. */
function toolError(result: unknown): string {
  const { isError, content } = result as CallToolResult;
  assert.equal(isError, true, JSON.stringify(content));
  return (content[0] as { text: string }).text;
}

describe('ldk mcp', () => {
  let server: ListeningContext;
  let client: Client;
  let product: any;
  let tools: Tool[];
  before(async () => {
    server = await listeningContext('sqlite');
    product = await createProduct(server.a.api, { issue_prefix: 'MCP' });
    const folder = tempDir('ldk-mcp-folder-');
    writeFileSync(join(folder, '.loopdesk.json'), JSON.stringify({ product: product.id }));
    client = await connect({ LOOPDESK_URL: server.url, LOOPDESK_API_KEY: server.a.key }, folder);
    tools = (await client.listTools()).tools;
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

  describe('tools', () => {
    it('lists the tools of cli/README.md, with descriptions a model can choose by', () => {
      assert.deepEqual(tools.map((tool) => tool.name), TOOLS);
      for (const tool of tools) assert.ok((tool.description ?? '').length > 60, `${tool.name} is described`);
      assert.match(tools.find((tool) => tool.name === 'create_issue')!.description!, /default.*matched_existing/s);
      assert.deepEqual(tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name),
        ['whoami', 'list_products', 'list_members', 'search', 'list_issues', 'get_issue', 'list_conversations', 'report_summary', 'get_conversation', 'list_macros',
          'list_notifications', 'list_suggestions', 'list_releases']);
    });

    it('has input and output schemas that are valid JSON Schema (2020-12, strict); a tool whose operation answers 204 has no output schema', () => {
      const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
      addFormats.default(ajv);
      assert.deepEqual(tools.filter((tool) => !tool.outputSchema).map((tool) => tool.name), ['mark_notifications_read']);
      for (const tool of tools) {
        for (const [kind, schema] of [['input', tool.inputSchema], ['output', tool.outputSchema]] as const) {
          if (!schema) continue;
          assert.equal(schema?.type, 'object', `${tool.name} ${kind}`);
          assert.ok(ajv.validateSchema(schema!), `${tool.name} ${kind}: ${ajv.errorsText()}`);
          assert.doesNotThrow(() => ajv.compile(schema!), `${tool.name} ${kind} compiles`);
        }
      }
    });

    it('derives the input schemas from the served OpenAPI document', async () => {
      const document = (await server.a.api.get('/api/v1/openapi.json')).body;
      const operation = (path: string, method: string) => document.paths[path][method];
      const bodyOf = (path: string, method: string) => operation(path, method).requestBody.content['application/json'].schema;
      const input = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema as any;

      const listIssues = operation('/api/v1/issues', 'get');
      assert.deepEqual(Object.keys(input('list_issues').properties).sort(), listIssues.parameters.map((parameter: any) => parameter.name).sort());
      const assignee = listIssues.parameters.find((parameter: any) => parameter.name === 'assignee_id');
      assert.equal(input('list_issues').properties.assignee_id.pattern, assignee.schema.pattern);

      const maybe = bodyOf('/api/v1/issues/maybe', 'post');
      assert.deepEqual(Object.keys(input('create_issue').properties), Object.keys(maybe.properties));
      assert.deepEqual(input('create_issue').properties.status.enum, maybe.properties.status.enum);
      // This folder's product is the default, so product_id is no longer required.
      assert.deepEqual(input('create_issue').required, ['title']);
      assert.match(input('create_issue').properties.product_id.description, new RegExp(`Default: ${product.id}`));

      const update = bodyOf('/api/v1/issues/{id}', 'patch');
      assert.deepEqual(Object.keys(input('update_issue').properties), ['id', ...Object.keys(update.properties)]);
      assert.deepEqual(input('update_issue').required, ['id']);
      assert.deepEqual(input('reply_to_conversation').required, ['id', 'body', 'confirm']);
      assert.equal('saved_reply_id' in input('reply_to_conversation').properties, false);
      const patchConversation = bodyOf('/api/v1/conversations/{id}', 'patch');
      assert.deepEqual(input('assign_conversation').properties.assignee_id, patchConversation.properties.assignee_id);
      assert.deepEqual([Object.keys(input('assign_conversation').properties), input('assign_conversation').required], [['id', 'assignee_id'], ['id', 'assignee_id']]);
      assert.deepEqual(input('add_note').properties.body, bodyOf('/api/v1/conversations/{id}/notes', 'post').properties.body);
      assert.deepEqual(input('add_note').required, ['id', 'body']);
      assert.deepEqual(input('reply_to_conversation').properties.confirm, {
        type: 'boolean', const: true, description: 'Must be true: the user has approved this exact text for the customer',
      });
      const accept = bodyOf('/api/v1/suggestions/{id}/accept', 'post');
      assert.deepEqual(Object.keys(input('accept_suggestion').properties), ['id', ...Object.keys(accept.properties)]);
      assert.deepEqual(input('accept_suggestion').required, ['id']);
      assert.deepEqual(input('accept_suggestion').properties.priority.enum, accept.properties.priority.enum);
      const search = operation('/api/v1/search', 'get');
      assert.deepEqual(Object.keys(input('search').properties).sort(), search.parameters.map((parameter: any) => parameter.name).sort());
      assert.deepEqual(input('search').required, ['q']);
      const queue = operation('/api/v1/suggestions', 'get');
      assert.deepEqual(Object.keys(input('list_suggestions').properties).sort(), queue.parameters.map((parameter: any) => parameter.name).sort());
      const notifications = operation('/api/v1/notifications', 'get');
      assert.deepEqual(Object.keys(input('list_notifications').properties).sort(), notifications.parameters.map((parameter: any) => parameter.name).sort());
      const read = bodyOf('/api/v1/notifications/read', 'post');
      assert.deepEqual(input('mark_notifications_read').properties, read.properties);
      assert.deepEqual(input('mark_notifications_read').required, []);
      for (const tool of tools) assert.doesNotMatch(JSON.stringify(tool.inputSchema), /"x-/, `${tool.name} carries no x- keywords`);
    });
  });

  describe('calls', () => {
    it('whoami, list_products and list_members answer with the API\'s bodies', async () => {
      assert.deepEqual(answer(await call('whoami')), (await server.a.api.get('/api/v1/me')).body);
      assert.deepEqual(answer(await call('list_products', { limit: 10 })), (await server.a.api.get('/api/v1/products?limit=10')).body);
      assert.deepEqual(answer(await call('list_members')), (await server.a.api.get('/api/v1/members')).body);
    });

    it('report_summary answers with the API\'s body; a bad window is the API\'s 400', async () => {
      const window = { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' };
      assert.deepEqual(answer(await call('report_summary', window)), (await server.a.api.get(`/api/v1/reports/summary?${new URLSearchParams(window)}`)).body);
      assert.match(toolError(await call('report_summary', { from: window.to, to: window.from })), /from/);
    });

    it('run_macro runs a macro (list_macros names it) and answers with the conversation after; an unknown macro is the API\'s 404', async () => {
      const macro = await createMacro(server.a.api, { actions: [{ type: 'set_priority', priority: 'high' }, { type: 'add_tags', tags: ['from-mcp'] }] });
      assert.deepEqual(answer(await call('list_macros', { limit: 200 })), (await server.a.api.get('/api/v1/macros?limit=200')).body);
      const elsewhere = await createProduct(server.a.api);
      const conversation = await importConversation(server.a.api, elsewhere.id, { body: 'Please escalate' });
      const after = answer(await call('run_macro', { id: conversation.id, macro_id: macro.id }));
      assert.deepEqual([after.data.priority, after.data.tags], ['high', ['from-mcp']]);
      assert.deepEqual(after, (await server.a.api.get(`/api/v1/conversations/${conversation.id}`)).body);
      assert.match(toolError(await call('run_macro', { id: conversation.id, macro_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091' })), /macro/i);
    });

    it('search finds records by words, accents ignored, and answers with the API\'s body; a blank q never reaches the API', async () => {
      const elsewhere = await createProduct(server.a.api);
      const conversation = await importConversation(server.a.api, elsewhere.id, { title: 'Payment broken', body: 'El botón de pago no funciona' });
      const found = answer(await call('search', { q: 'boton pago', types: 'conversation' }));
      assert.deepEqual(found, (await server.a.api.get('/api/v1/search?q=boton%20pago&types=conversation')).body);
      assert.deepEqual(found.data.map((result: any) => [result.type, result.id]), [['conversation', conversation.id]]);
      assert.match(toolError(await call('search', { q: ' ' })), /^invalid arguments for search: .*q must match pattern/);
      assert.match(toolError(await call('search', {})), /required property 'q'/);
    });

    it('create_issue deduplicates: the same report twice lands on one issue', async () => {
      const first = answer(await call('create_issue', { title: 'Search ignores accents', description: 'café finds nothing' }));
      assert.deepEqual({ matched: first.matched_existing, code: first.data.shortcode, product: first.data.product_id }, { matched: false, code: 'MCP-1', product: product.id });
      const second = answer(await call('create_issue', { title: 'Search ignores accents', description: 'café finds nothing' }));
      assert.deepEqual({ matched: second.matched_existing, code: second.data.shortcode, sources: second.data.sources_count }, { matched: true, code: 'MCP-1', sources: 2 });
    });

    it('get_issue, list_issues and update_issue take shortcodes', async () => {
      assert.deepEqual(answer(await call('get_issue', { id: 'mcp-1' })), (await server.a.api.get('/api/v1/issues/MCP-1')).body);
      const started = answer(await call('update_issue', { id: 'MCP-1', status: 'in_progress', assignee_id: 'me' }));
      assert.deepEqual({ status: started.data.status, assignee: started.data.assignee_id }, { status: 'in_progress', assignee: server.a.owner.id });
      const mine = answer(await call('list_issues', { assignee_id: 'me', status: 'in_progress' }));
      assert.deepEqual(mine.data.map((issue: any) => issue.shortcode), ['MCP-1']);
      const done = answer(await call('update_issue', { id: 'MCP-1', status: 'done', resolution_comment: 'Folded accents in the index' }));
      assert.equal(done.data.resolution_comment, 'Folded accents in the index');
    });

    it('create_release ships issues named by shortcode; list_releases lists it', async () => {
      const release = answer(await call('create_release', { title: 'Search fixes', version: '3.1.0', issue_ids: ['MCP-1'] }));
      assert.deepEqual(release.data.issues.map((issue: any) => issue.status), ['released']);
      assert.equal(release.data.product_id, product.id);
      const listed = answer(await call('list_releases', { product_id: product.id }));
      assert.deepEqual(listed.data.map((item: any) => item.id), [release.data.id]);
    });

    it('list_conversations, get_conversation, update_conversation', async () => {
      const conversation = await importConversation(server.a.api, product.id, { title: 'Where is my invoice?', body: 'Cannot find it.' });
      const listed = answer(await call('list_conversations', { product_id: product.id, status: 'open' }));
      assert.deepEqual(listed.data.map((item: any) => item.id), [conversation.id]);
      assert.deepEqual(answer(await call('get_conversation', { id: conversation.id })), (await server.a.api.get(`/api/v1/conversations/${conversation.id}`)).body);
      assert.equal(answer(await call('update_conversation', { id: conversation.id, status: 'resolved' })).data.status, 'resolved');
    });

    it('assign_conversation (a member, me, null) and add_note (internal, no confirmation)', async () => {
      const conversation = await importConversation(server.a.api, product.id, { title: 'Invoice in the wrong name', body: 'Please fix.' });
      assert.equal(answer(await call('assign_conversation', { id: conversation.id, assignee_id: 'me' })).data.assignee_id, server.a.owner.id);
      assert.equal(answer(await call('assign_conversation', { id: conversation.id, assignee_id: null })).data.assignee_id, null);
      assert.match(toolError(await call('assign_conversation', { id: conversation.id })), /required property 'assignee_id'/);
      const note = answer(await call('add_note', { id: conversation.id, body: 'Billing name comes from the CRM.' }));
      assert.deepEqual({ internal: note.data.internal, sender: note.data.sender_type }, { internal: true, sender: 'agent' });
      const detail = (await server.a.api.get(`/api/v1/conversations/${conversation.id}`)).body.data;
      assert.deepEqual(detail.messages.map((message: any) => message.internal), [false, true]);
    });

    it('reply_to_conversation sends only with confirm: true', async () => {
      const conversation = await importConversation(server.a.api, product.id, { title: 'Refund?' });
      const messages = async () => (await server.a.api.get(`/api/v1/conversations/${conversation.id}`)).body.data.messages.length;
      assert.match(toolError(await call('reply_to_conversation', { id: conversation.id, body: 'Refunded.' })), /required property 'confirm'/);
      assert.match(toolError(await call('reply_to_conversation', { id: conversation.id, body: 'Refunded.', confirm: false })), /confirm must be equal to constant/);
      assert.equal(await messages(), 0);
      const sent = answer(await call('reply_to_conversation', { id: conversation.id, body: 'Refunded.', confirm: true }));
      assert.deepEqual({ body: sent.data.body, sender: sent.data.sender_type }, { body: 'Refunded.', sender: 'agent' });
      assert.equal(await messages(), 1);
    });

    it('list_notifications lists the key\'s member\'s notifications; mark_notifications_read marks them (by ids, then all)', async () => {
      const colleague = await server.services.admin.createMember({ workspaceId: server.a.id, name: 'Rosalind Franklin', role: 'agent', email: 'rosalind@mcp.test' });
      const { key } = await server.services.admin.createKey({ workspaceId: server.a.id, memberId: colleague.id });
      const theirs = server.client(key);
      const assigned = await importConversation(server.a.api, product.id, { title: 'Cannot export to CSV' });
      const mentioned = await importConversation(server.a.api, product.id, { title: 'Login loops' });
      assert.equal((await theirs.patch(`/api/v1/conversations/${assigned.id}`, { assignee_id: server.a.owner.id })).status, 200);
      assert.equal((await theirs.post(`/api/v1/conversations/${mentioned.id}/notes`, { body: `@${server.a.owner.display_name} can you look?` })).status, 201);

      const unread = answer(await call('list_notifications', { unread: true }));
      assert.deepEqual(unread, (await server.a.api.get('/api/v1/notifications?unread=true')).body);
      assert.deepEqual(unread.data.map((n: any) => [n.kind, n.conversation.id, n.actor.id]), [['mention', mentioned.id, colleague.id], ['assigned', assigned.id, colleague.id]]);

      const done = { content: [{ type: 'text', text: 'Done (the API answered 204 No Content).' }] };
      assert.deepEqual(await call('mark_notifications_read', { ids: [unread.data[1].id] }), done);
      assert.deepEqual(answer(await call('list_notifications', { unread: true })).data.map((n: any) => n.id), [unread.data[0].id]);
      assert.deepEqual(await call('mark_notifications_read', { all: true }), done);
      assert.deepEqual(answer(await call('list_notifications', { unread: true })).data, []);
      assert.match(toolError(await call('mark_notifications_read', { all: false })), /^invalid arguments for mark_notifications_read: .*all must be equal to one of the allowed values/);
      assert.match(toolError(await call('mark_notifications_read', {})), /\(HTTP 400 validation_error\)/);
    });

    it('list_suggestions, accept_suggestion (issue_id by shortcode) and dismiss_suggestion', async () => {
      const target = await createIssue(server.a.api, product.id, { title: 'Invoices show the wrong currency', description: 'USD instead of EUR.' });
      const triaged = async (title: string, body: string) => {
        const conversation = await importConversation(server.a.api, product.id, { title, body });
        return (await server.a.api.post(`/api/v1/conversations/${conversation.id}/triage`)).body.data.at(-1);
      };
      const link = await triaged('Invoices show the wrong currency', 'USD instead of EUR.');
      const create = await triaged('Dark mode forgets itself', 'Every restart it is light again.');
      const queue = answer(await call('list_suggestions', { product_id: product.id, kind: 'link' }));
      assert.deepEqual(queue, (await server.a.api.get(`/api/v1/suggestions?product_id=${product.id}&kind=link`)).body);
      assert.deepEqual(queue.data.map((suggestion: any) => [suggestion.id, suggestion.issue.id]), [[link.id, target.id]]);
      const other = await createIssue(server.a.api, product.id, { title: 'Currency' });
      const accepted = answer(await call('accept_suggestion', { id: link.id, issue_id: other.shortcode.toLowerCase() }));
      assert.deepEqual([accepted.data.status, accepted.data.issue.id], ['accepted', other.id]);
      assert.equal(answer(await call('dismiss_suggestion', { id: create.id })).data.status, 'dismissed');
      assert.match(toolError(await call('dismiss_suggestion', { id: create.id })), /suggestion is already dismissed/);
    });
  });

  describe('errors', () => {
    it('an API error is a tool error with the API\'s detail', async () => {
      assert.equal(toolError(await call('get_issue', { id: 'MCP-999' })), 'issue not found (HTTP 404 not_found)');
      const foreign = await createProduct(server.b.api);
      const text = toolError(await call('create_issue', { product_id: foreign.id, title: 'Not yours' }));
      assert.match(text, /^.*product_id.* \(HTTP 400 validation_error\) Fields: \{"product_id":/);
    });

    it('arguments that do not fit the schema are a tool error, before any request', async () => {
      assert.match(toolError(await call('update_issue', { id: 'MCP-1', status: 'finished' })), /^invalid arguments for update_issue: .*status must be equal to one of the allowed values/);
      assert.match(toolError(await call('list_issues', { limit: 500 })), /limit must be <= 200/);
      assert.match(toolError(await call('get_issue', {})), /required property 'id'/);
    });

    it('a read-only key\'s write, a revoked key and no key at all are tool errors', async () => {
      const readOnly = await connect({ LOOPDESK_URL: server.url, LOOPDESK_API_KEY: server.a.readOnlyKey });
      const issue = await createIssue(server.a.api, product.id);
      assert.equal(toolError(await readOnly.callTool({ name: 'update_issue', arguments: { id: issue.id, status: 'done' } })),
        'this API key is read-only: only GET requests are allowed (HTTP 403 forbidden)');
      assert.equal(answer(await readOnly.callTool({ name: 'get_issue', arguments: { id: issue.id } })).data.status, 'pending');
      await readOnly.close();

      const revoked = await connect({ LOOPDESK_URL: server.url, LOOPDESK_API_KEY: server.a.revokedKey });
      assert.equal(toolError(await revoked.callTool({ name: 'whoami', arguments: {} })), 'invalid or revoked API key (HTTP 401 unauthorized)');
      await revoked.close();

      const loggedOut = await connect({});
      assert.equal((await loggedOut.listTools()).tools.length, TOOLS.length);
      assert.match(toolError(await loggedOut.callTool({ name: 'whoami', arguments: {} })), /^no server configured: run `ldk login/);
      await loggedOut.close();
    });
  });

  it('exits when its stdin closes', async () => {
    const child = spawn(process.execPath, [LDK, 'mcp'], { env: ldkEnvironment({ HOME: tempDir('ldk-home-') }), stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.end();
    assert.equal(await exited, 0);
  });
});
