// ldk macros list|run: the team's saved action lists, and running one on a conversation.
import type { Command } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api, Schemas } from '../api.js';
import { CliError } from '../errors.js';
import { addPageOptions, type PageOptions } from '../options.js';
import { pageSummary, paint, table } from '../output.js';
import { everyPage, isUuid } from '../resolve.js';
import { conversationText } from './conversations.js';

type Macro = Schemas['Macro'];
type Action = Schemas['AutomationAction'];

/** One action as a person reads it: `add_tags billing, refund`, `assign round_robin`. */
function describeAction(action: Action): string {
  switch (action.type) {
    case 'assign': return `assign ${action.member_id}`;
    case 'add_tags':
    case 'remove_tags': return `${action.type} ${action.tags.join(', ')}`;
    case 'set_priority': return `set_priority ${action.priority}`;
    case 'set_status': return `set_status ${action.status}`;
    case 'add_note': return 'add_note';
    case 'reply': return `reply ${action.saved_reply_id}`;
  }
}

async function listMacros(api: Api, options: PageOptions): Promise<HumanOutput> {
  const page = await api.call(api.client.GET('/api/v1/macros', { params: { query: { limit: options.limit, offset: options.offset } } }));
  return () => {
    const summary = pageSummary(page.pagination, page.data.length);
    if (page.data.length === 0) return summary;
    const rows = table(page.data, [
      { header: 'MACRO', value: (macro) => macro.id },
      { header: 'NAME', value: (macro) => macro.name },
      { header: 'ACTIONS', value: (macro) => macro.actions.map(describeAction).join('; '), shrinks: true },
    ]);
    return `${rows}\n${summary}`;
  };
}

/** A macro's id from its UUID (no request) or its exact name (case counts; two macros of that name are an error). */
async function macroIdOf(api: Api, ref: string): Promise<string> {
  if (isUuid(ref)) return ref;
  const named: Macro[] = [];
  const macros = everyPage((offset) => api.call(api.client.GET('/api/v1/macros', { params: { query: { limit: 200, offset } } })));
  for await (const macro of macros) if (macro.name === ref) named.push(macro);
  if (named.length === 0) throw new CliError(`no macro named "${ref}" (ldk macros list shows them)`);
  if (named.length > 1) throw new CliError(`${named.length} macros are named "${ref}": pass one's id (${named.map((macro) => macro.id).join(', ')})`);
  return named[0].id;
}

async function runMacro(api: Api, conversationId: string, macroRef: string): Promise<HumanOutput> {
  const macroId = await macroIdOf(api, macroRef);
  const path = { id: conversationId, macro_id: macroId };
  const { data } = await api.call(api.client.POST('/api/v1/conversations/{id}/macros/{macro_id}', { params: { path } }));
  return async () => `${paint('dim', `Ran the macro on the conversation; it is now:`)}\n\n${await conversationText(api, data)}`;
}

export function defineMacroCommands(program: Command): void {
  const macros = program.command('macros').description('the team\'s macros: saved lists of actions to run on a conversation in one go');
  addPageOptions(macros.command('list').description('list the workspace\'s macros, oldest first'), 'listMacros').action(withApi(listMacros));

  macros.command('run').description('run a macro\'s actions on a conversation, all or nothing, then show the conversation')
    .argument('<conversation>', 'conversation UUID')
    .argument('<macro>', 'macro UUID, or its exact name')
    .addHelpText('after', `
The actions run as you: notes and replies are sent as your member, and an assign action with
round_robin gives the conversation to the next free member of its product's assignment.`)
    .action(withApi(runMacro));
}
