// The command tree of cli/README.md, built with commander: every command has --help (no server or
// key needed) and, where it calls the API, --json.
import { Command } from 'commander';
import { defineCompletionCommand } from './commands/completion.js';
import { defineContactCommands } from './commands/contacts.js';
import { defineConversationCommands } from './commands/conversations.js';
import { defineIssueCommands } from './commands/issues.js';
import { defineMacroCommands } from './commands/macros.js';
import { defineMcpCommand } from './commands/mcp.js';
import { defineProductCommands } from './commands/products.js';
import { defineReleaseCommands } from './commands/releases.js';
import { defineReportCommands } from './commands/reports.js';
import { defineSearchCommand } from './commands/search.js';
import { defineSessionCommands } from './commands/session.js';
import { defineTriageCommands } from './commands/triage.js';
import { VERSION } from './version.js';

/** Commands that print no API answer (a shell script; the MCP protocol), so --json means nothing to them. */
const WITHOUT_JSON = new Set(['completion', 'mcp']);

const EXAMPLES = `
Examples:
  ldk login --url http://127.0.0.1:3000 --key ldk_…
  ldk init --product my-app                  tie this folder to a product
  ldk issue list --status pending,in_progress --assignee me
  ldk issue create "Checkout fails on Android" -d "Tapping Pay does nothing"
  ldk issue start APP-12
  ldk issue done APP-12 --comment "Fixed in the payment SDK update"
  ldk triage list                            what triage suggests, oldest first
  ldk search checkout android --type issue   find records by words
  ldk macros run 0193… "Close as duplicate"  run a macro on a conversation
  ldk release create --title "November fixes" --version 2.4.0 --all-done

Environment: LOOPDESK_URL and LOOPDESK_API_KEY override what ldk login saved.
Exit codes: 0 done, 1 failed (the API's error, an unreachable server, no key, a refused reply), 2 bad usage.`;

function leafCommands(command: Command): Command[] {
  return command.commands.length === 0 ? [command] : command.commands.flatMap(leafCommands);
}

export function buildProgram(): Command {
  const program = new Command('ldk')
    .description(
      'Loopdesk from the command line: work the backlog, answer customers, ship releases.\n' +
        '`ldk mcp` serves the same operations to agents over MCP.',
    )
    .version(VERSION)
    // Program options only before the subcommand: `release create --version 2.4.0` is the release's.
    .enablePositionalOptions()
    .exitOverride()
    .showSuggestionAfterError()
    .addHelpText('after', EXAMPLES);
  defineSessionCommands(program);
  defineProductCommands(program);
  defineIssueCommands(program);
  defineConversationCommands(program);
  defineContactCommands(program);
  defineSearchCommand(program);
  defineTriageCommands(program);
  defineReleaseCommands(program);
  defineReportCommands(program);
  defineMacroCommands(program);
  defineMcpCommand(program);
  defineCompletionCommand(program);
  for (const command of leafCommands(program)) {
    if (!WITHOUT_JSON.has(command.name())) command.option('--json', 'print the body of the API\'s answer, unchanged, instead of text');
  }
  return program;
}
