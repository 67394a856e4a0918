import type { Command } from 'commander';

/** Loaded only for `ldk mcp`: the SDK is most of ldk's start-up time. */
async function serveMcp(): Promise<void> {
  const { serveMcp: serve } = await import('../mcp/server.js');
  await serve();
}

export function defineMcpCommand(program: Command): void {
  program.command('mcp').description('serve the Loopdesk tools to an MCP client (an agent) over stdio, until stdin closes')
    .addHelpText('after', `
Add it to an MCP client, e.g. in .mcp.json (Claude Code) or claude_desktop_config.json:
  { "mcpServers": { "loopdesk": { "command": "ldk", "args": ["mcp"] } } }
It uses the server and key of ldk login (or LOOPDESK_URL and LOOPDESK_API_KEY in "env"), and the
product of the folder it starts in (.loopdesk.json) as the default product_id.`)
    .action(serveMcp);
}
