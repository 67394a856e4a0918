// ldk completion bash|zsh: a completion script made from the command tree itself, so it always
// knows every command, option and choice. Both shells share the data functions; each has a driver.
import { Argument, type Command, type Option } from 'commander';
import { print } from '../action.js';
import { ListOption } from '../options.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

interface Entry {
  path: string;
  command: Command;
}

function entries(command: Command, path = ''): Entry[] {
  return [{ path, command }, ...command.commands.flatMap((sub) => entries(sub, path ? `${path} ${sub.name()}` : sub.name()))];
}

const visibleOptions = (command: Command): readonly Option[] => command.options.filter((option) => !option.hidden);
const optionValues = (option: Option): readonly string[] => (option instanceof ListOption ? option.values : (option.argChoices ?? []));

/** `name() { case "$1" in 'key') printf '%s\n' 'line' …;; esac; }` for the keys that have lines. */
function caseFunction(name: string, comment: string, table: [key: string, lines: readonly string[]][]): string {
  const branches = table
    .filter(([, lines]) => lines.length > 0)
    .map(([key, lines]) => `    ${quote(key)}) printf '%s\\n' ${lines.map(quote).join(' ')} ;;`);
  return `# ${comment}\n${name}() {\n  case "$1" in\n${branches.join('\n')}\n  esac\n}`;
}

function dataFunctions(program: Command): string {
  const all = entries(program);
  const commands = caseFunction('_ldk_commands', 'The subcommands of a command path, as name:description lines.', all.map(({ path, command }) => [
    path, command.commands.map((sub) => `${sub.name()}:${sub.description()}`),
  ]));
  const options = caseFunction('_ldk_options', 'The options of a command path, as --name:description lines.', all.map(({ path, command }) => [
    path, [...visibleOptions(command).flatMap((option) => (option.long ? [`${option.long}:${option.description}`] : [])), '--help:show help'],
  ]));
  const valuesOfOptions = all.flatMap(({ path, command }) =>
    visibleOptions(command).map((option): [string, readonly string[]] => [`${path} ${option.long}`, optionValues(option)]));
  const valuesOfArguments = all.map(({ path, command }): [string, readonly string[]] => [
    path, command.registeredArguments.flatMap((argument: Argument) => argument.argChoices ?? []),
  ]);
  const values = caseFunction(
    '_ldk_values',
    'The values an option ("issue list --status") or a command\'s argument ("completion") takes.',
    [...valuesOfOptions, ...valuesOfArguments],
  );
  const isCommand = `# Whether $2 is a subcommand of the command path $1.
_ldk_is_command() {
  local line
  while IFS= read -r line; do [[ \${line%%:*} == "$2" ]] && return 0; done < <(_ldk_commands "$1")
  return 1
}`;
  return [commands, options, values, isCommand].join('\n\n');
}

const BASH_DRIVER = `_ldk() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} path='' word i candidates
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    _ldk_is_command "$path" "$word" && path=\${path:+$path }$word
  done
  candidates=$(_ldk_values "$path $prev")
  if [[ -z $candidates ]]; then
    if [[ $cur == -* ]]; then candidates=$(_ldk_options "$path")
    else candidates="$(_ldk_commands "$path")"$'\\n'"$(_ldk_values "$path")"
    fi
    candidates=$(printf '%s\\n' "$candidates" | while IFS= read -r word; do printf '%s\\n' "\${word%%:*}"; done)
  fi
  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
}
complete -o default -F _ldk ldk`;

// zsh: \`path\` is zsh's array tied to PATH, hence path_.
const ZSH_DRIVER = `_ldk() {
  local path_='' word i
  local -a described values
  for ((i = 2; i < CURRENT; i++)); do
    word=\${words[i]}
    _ldk_is_command "$path_" "$word" && path_=\${path_:+$path_ }$word
  done
  values=(\${(f)"$(_ldk_values "$path_ \${words[CURRENT-1]}")"})
  if (( \${#values} )); then compadd -a values; return; fi
  if [[ \${words[CURRENT]} == -* ]]; then
    described=(\${(f)"$(_ldk_options "$path_")"})
    _describe -t options 'option' described
  else
    described=(\${(f)"$(_ldk_commands "$path_")"})
    values=(\${(f)"$(_ldk_values "$path_")"})
    if (( \${#described} )); then _describe -t commands 'command' described; fi
    if (( \${#values} )); then compadd -a values; fi
  fi
}
compdef _ldk ldk`;

const HEADERS = {
  bash: '# ldk completion for bash. Load it with: source <(ldk completion bash)   (e.g. in ~/.bashrc)',
  zsh: '#compdef ldk\n# ldk completion for zsh. Load it with: source <(ldk completion zsh)   (in ~/.zshrc, after compinit)',
};

export function completionScript(program: Command, shell: 'bash' | 'zsh'): string {
  return [HEADERS[shell], dataFunctions(program), shell === 'bash' ? BASH_DRIVER : ZSH_DRIVER].join('\n\n');
}

export function defineCompletionCommand(program: Command): void {
  program.command('completion').description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh']))
    .addHelpText('after', '\nLoad it with: source <(ldk completion bash), or source <(ldk completion zsh) after compinit.')
    .action((shell: 'bash' | 'zsh') => print(completionScript(program, shell)));
}
