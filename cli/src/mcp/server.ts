// `ldk mcp`: the tools over stdio with the official SDK. The tools' schemas are plain JSON Schema
// derived from the OpenAPI document, which is what the SDK's low-level Server takes as it is
// (McpServer wants zod schemas). Arguments are checked against those schemas before any request;
// the API's error answers come back as tool errors carrying its detail.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type CallToolResult, CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Api } from '../api.js';
import { findFolderProduct, resolveCredentials } from '../config.js';
import { ApiError, CliError } from '../errors.js';
import { VERSION } from '../version.js';
import { buildTools, type Tool } from './tools.js';

const INSTRUCTIONS = `Loopdesk is the team's customer support and backlog. Customers write in conversations; the team
distils them into issues (shortcodes like APP-12), works them (pending → in_progress → done) and ships
done issues in releases. File issues with create_issue: it returns the existing issue when the
report is a duplicate. Start work with update_issue (status in_progress, assignee_id "me"), finish
with status done and a resolution_comment, ship with create_release. reply_to_conversation writes to
a customer: only with the user's approval of the exact text (confirm: true). To find an issue,
conversation or contact from a few words (a customer's complaint, a name, an email), use search.
What was assigned to your member, or mentioned it, is in list_notifications.`;

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function apiErrorText(error: ApiError): string {
  const body = error.body as { error_code?: string; fields?: Record<string, string> };
  const fields = body.fields ? ` Fields: ${JSON.stringify(body.fields)}` : '';
  return `${error.message} (HTTP ${error.status}${body.error_code ? ` ${body.error_code}` : ''})${fields}`;
}

type Validate = (args: unknown) => { valid: boolean; errorMessage?: string };

async function callTool(tool: Tool, validate: Validate, args: Record<string, unknown>): Promise<CallToolResult> {
  const check = validate(args);
  if (!check.valid) return errorResult(`invalid arguments for ${tool.name}: ${check.errorMessage}`);
  try {
    const answer = (await tool.call(new Api(resolveCredentials()), args)) as Record<string, unknown> | undefined;
    // An operation that answers 204 has nothing to show but that it was done.
    if (!tool.outputSchema) return { content: [{ type: 'text', text: 'Done (the API answered 204 No Content).' }] };
    return { content: [{ type: 'text', text: JSON.stringify(answer, null, 2) }], structuredContent: answer };
  } catch (error) {
    if (error instanceof ApiError) return errorResult(apiErrorText(error));
    if (error instanceof CliError) return errorResult(error.message);
    throw error;
  }
}

export async function serveMcp(): Promise<void> {
  const tools = buildTools(findFolderProduct()?.productId ?? null);
  const validator = new AjvJsonSchemaValidator();
  const validators = new Map(tools.map((tool) => [tool.name, { tool, validate: validator.getValidator(tool.inputSchema) }]));

  const server = new Server({ name: 'loopdesk', title: 'Loopdesk', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(({ name, description, inputSchema, outputSchema, readOnly }) => ({
      name, description, inputSchema, outputSchema, annotations: { readOnlyHint: readOnly },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const entry = validators.get(params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `no tool named ${params.name}`);
    return callTool(entry.tool, entry.validate, params.arguments ?? {});
  });

  await server.connect(new StdioServerTransport());
  // The client closing our stdin is the end of the session (the transport itself does not watch for it).
  process.stdin.once('end', () => void server.close().finally(() => process.exit(0)));
}
