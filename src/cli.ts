// The admin CLI (bin/loopdesk.js): serve, migrate, and workspace/member/key administration on
// DATABASE_URL directly (docs/admin-cli.md). Bad arguments exit 2; a missing database, workspace,
// member or key exits 1. Each command is one definition: its usage text and its parsing both
// come from its option table, so `--help` cannot drift from what the command accepts.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { parseArgs } from 'node:util';
import { ConfigError, databaseUrl, loadConfig, serverBase, type Config } from './config.js';
import { backUp, BackupError, ExternalBackupError } from './db/backup.js';
import { copyDatabase, CopyRefusedError, type CopyReport } from './db/copy.js';
import type { ReportRebuild } from './domain/reports/report-rebuild.js';
import { createDatabase, MissingDatabaseError, NewerDatabaseError, type DatabaseHandle, type OpenOptions } from './db/database.js';
import { MEMBER_ROLES, type MemberRole } from './domain/accounts/actor.js';
import type { AdminService } from './domain/accounts/admin.service.js';
import { auditLogRepository } from './db/repositories/audit/audit-log.repository.js';
import { workspaceRepository } from './db/repositories/workspace.repository.js';
import { createAuditLog, recordBackup } from './domain/audit/audit-log.js';
import { systemClock } from './lib/clock.js';
import type { InvitationService } from './domain/accounts/invitation.service.js';
import { AppError } from './errors.js';
import { parseUuid } from './lib/ids.js';
import { ListenError } from './lib/listen.js';

class UsageError extends Error {
  /** The command whose `--help` the message points to (`key`, `member create`); the overview when absent. */
  readonly topic?: string;

  constructor(message: string, topic?: string) {
    super(message);
    this.topic = topic;
  }

  get helpCommand(): string {
    return ['loopdesk', this.topic, '--help'].filter((part) => part !== undefined).join(' ');
  }
}

/** Checks and normalizes one argument's text; `label` names the argument in messages (`--workspace`, `KEY_ID`). */
type ValueParser<T> = (text: string, label: string) => T;

interface StringOption<T> {
  readonly type: 'string';
  /** The value's placeholder in usage lines; a positional argument is shown as the placeholder alone. */
  readonly value: string;
  readonly help: string;
  readonly required?: boolean;
  /** Given as the command's one positional argument rather than as `--name VALUE`. */
  readonly positional?: boolean;
  readonly parse: ValueParser<T>;
}

interface FlagOption {
  readonly type: 'boolean';
  readonly help: string;
}

type OptionSpec = StringOption<unknown> | FlagOption;
type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type OptionValues<O extends OptionSpecs> = {
  [K in keyof O]: O[K] extends StringOption<infer T> ? (O[K] extends { required: true } ? T : T | undefined) : boolean;
};

interface Command<O extends OptionSpecs = OptionSpecs> {
  /** How it is invoked: `migrate`, `workspace create`. */
  readonly name: string;
  readonly summary: string;
  readonly options: O;
  run(values: OptionValues<O>): Promise<void>;
}

const HELP_FLAGS = ['--help', '-h'];
const DATABASE_NOTE =
  'DATABASE_URL names the server\'s database (default sqlite:./data/loopdesk.db; a relative SQLite path is relative to the current directory).';

// Infers each definition's option types, so that its run() receives typed values.
const command = <const O extends OptionSpecs>(definition: Command<O>): Command => definition;

const asIs: ValueParser<string> = (text) => text;

const nonBlank: ValueParser<string> = (text, label) => {
  const value = text.trim();
  if (value === '') throw new UsageError(`${label} is required`);
  return value;
};

const uuid: ValueParser<string> = (text, label) => {
  const id = parseUuid(nonBlank(text, label));
  if (!id) throw new UsageError(`${label} must be a UUID`);
  return id;
};

const memberRole: ValueParser<MemberRole> = (text, label) => {
  const value = nonBlank(text, label);
  if (!MEMBER_ROLES.includes(value as MemberRole)) throw new UsageError(`${label} must be one of ${MEMBER_ROLES.join(', ')}`);
  return value as MemberRole;
};

// The rule the API applies to `format: "email"` (ajv-formats, full mode).
const EMAIL = fullFormats.email as RegExp;

const emailAddress: ValueParser<string> = (text, label) => {
  const value = nonBlank(text, label);
  if (!EMAIL.test(value)) throw new UsageError(`${label} must be an email address`);
  return value;
};

const JSON_FLAG: FlagOption = { type: 'boolean', help: 'print one JSON object instead of text' };
const WORKSPACE: StringOption<string> & { required: true } = {
  type: 'string', value: 'WS_ID', required: true, parse: uuid, help: 'the workspace\'s id (see `loopdesk workspace list`)',
};

/**
 * One run of a command: the environment it reads and where it writes. `main` gives it the
 * process's own; the tests run most commands in their own process, through `runCommand`, with
 * their output captured (test/helpers/cli-in-process.ts).
 */
export interface Invocation {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** The command running now (one at a time), and the exit status it has set without failing. */
let invocation: Invocation;
let exitStatus = 0;

const printText = (text: string): void => invocation.stdout(`${text}\n`);

const print = (json: boolean, value: unknown, human: string): void => printText(json ? JSON.stringify(value) : human);

/** Rows as lines whose columns line up: each padded to its widest cell, two spaces apart. */
function alignedLines(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()).join('\n');
}

/** `{ data }` with --json; otherwise one aligned line per record, or `empty`. */
function printList<T>(json: boolean, data: T[], columns: (record: T) => string[], empty: string): void {
  print(json, { data }, data.length > 0 ? alignedLines(data.map(columns)) : empty);
}

/**
 * The services on DATABASE_URL, migrated first. A SQLite file that does not exist is not
 * created: a wrong path must not pass for an empty database.
 */
async function withServices<T>(fn: (services: { admin: AdminService; invitations: InvitationService; reportRebuild: ReportRebuild }, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig(invocation.env);
  const database = createDatabase(config.databaseUrl, { ...config.database, createIfMissing: false });
  try {
    await database.migrate();
    // Loaded only here: the services weigh most of the CLI's start-up, which --help, argument
    // errors and the commands on the database alone (migrate, backup, copy) do not need.
    const { createServices } = await import('./services.js');
    return await fn(createServices(database, { defaultCalendar: config.defaultCalendar }), config);
  } finally {
    await database.close();
  }
}

/** The backup's `backup.created` in every workspace's audit log, by the system (docs/audit-log.md). */
async function recordBackupOf({ db }: DatabaseHandle): Promise<void> {
  await recordBackup({ db, audit: createAuditLog({ auditEntries: auditLogRepository(db), clock: systemClock }), workspaces: workspaceRepository(db) });
}

const withAdmin = <T>(fn: (admin: AdminService) => Promise<T>): Promise<T> => withServices(({ admin }) => fn(admin));

/** fn on DATABASE_URL's database, closed afterwards. */
async function withDatabase<T>(options: Pick<OpenOptions, 'createIfMissing' | 'readOnly'>, fn: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const config = loadConfig(invocation.env);
  const database = createDatabase(config.databaseUrl, { ...config.database, ...options });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** `migrate --check`: the pending migrations, exit status 1 when there are any (or when a newer Loopdesk migrated the database). */
async function checkMigrations(database: DatabaseHandle, json: boolean): Promise<void> {
  const { pending, unknown } = await database.migrationStatus();
  if (unknown.length > 0) throw new NewerDatabaseError(unknown);
  print(json, { pending }, pending.length ? `pending: ${pending.join(', ')}` : 'up to date: no pending migrations');
  if (pending.length > 0) exitStatus = 1;
}

function printCopyReport(json: boolean, report: CopyReport): void {
  const rows = report.tables.map((t) => [
    t.table, `${t.rows.source}`, `${t.rows.target}`, t.checksum.source.slice(0, 16), t.checksum.target.slice(0, 16), t.matches ? 'ok' : 'DIFFERS',
  ]);
  const verdict = report.matches
    ? `copied ${report.tables.length} tables in ${report.duration_ms} ms; every count and checksum matches`
    : 'the copy DIFFERS from the source (were writes stopped?); do not switch to it';
  print(json, report, `${alignedLines([['table', 'source rows', 'target rows', 'source checksum', 'target checksum', ''], ...rows])}\n${verdict}`);
  if (!report.matches) exitStatus = 1;
}

const COMMANDS: Command[] = [
  command({
    name: 'serve',
    summary: 'Start the server (the default command). On an empty database it first creates workspace "Default", an owner and a key, and prints the key once.',
    options: {},
    async run() {
      // Loaded only here: the HTTP stack would double the start-up time of every admin command.
      const { startServer } = await import('./main.js');
      return startServer(loadConfig(invocation.env));
    },
  }),
  command({
    name: 'migrate',
    summary: 'Apply pending migrations (creates a SQLite database that does not exist yet). With --check, only list them: exit 1 when any are pending.',
    options: { check: { type: 'boolean', help: 'change nothing: list the pending migrations, exit 1 when there are any' }, json: JSON_FLAG },
    run: ({ check, json }) =>
      withDatabase({ createIfMissing: !check }, async (database) => {
        if (check) return checkMigrations(database, json);
        const applied = await database.migrate();
        print(json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'already up to date');
      }),
  }),
  command({
    name: 'backup',
    summary:
      'Copy the SQLite database, while the server runs, into FILE (a new file) as one consistent snapshot, and check the copy\'s ' +
      'integrity before reporting success. On PostgreSQL it explains pg_dump and pg_restore instead (exit 2).',
    options: {
      file: { type: 'string', value: 'FILE', required: true, positional: true, parse: nonBlank, help: 'where to write the copy; never overwritten' },
      json: JSON_FLAG,
    },
    async run({ file, json }) {
      const report = await withDatabase({ readOnly: true }, (database) => backUp(database, file));
      await withDatabase({}, (database) => recordBackupOf(database));
      const megabytes = (report.bytes / 1024 / 1024).toFixed(1);
      print(json, report, `backup written to ${report.file} (${megabytes} MB, integrity ok, ${report.duration_ms} ms)`);
    },
  }),
  command({
    name: 'copy',
    summary:
      'Copy every table of the database into an empty one at URL (SQLite to PostgreSQL or back), migrating it first; then compare ' +
      'row counts and checksums table by table (exit 1 when any differs). Stop the server\'s writes first.',
    options: {
      to: { type: 'string', value: 'URL', required: true, parse: (text, label) => databaseUrl(label, nonBlank(text, label)), help: 'the target database: sqlite:PATH or postgres://…' },
      json: JSON_FLAG,
    },
    async run({ to, json }) {
      const report = await withDatabase({ readOnly: true }, async (source) => {
        const target = createDatabase(to, loadConfig(invocation.env).database);
        try {
          return await copyDatabase(source, target);
        } finally {
          await target.close();
        }
      });
      printCopyReport(json, report);
    },
  }),
  command({
    name: 'reports rebuild',
    summary:
      'Measure every stopped SLA clock again from its conversation\'s messages and the calendars as they are now, and count conversations and messages per day afresh (the figures reports read; ' +
      'docs/reports.md): after an import, a copy, a change of calendars or of LOOPDESK_DEFAULT_CALENDAR. Safe while the server runs.',
    options: { json: JSON_FLAG },
    async run({ json }) {
      const report = await withServices(({ reportRebuild }) => reportRebuild.rebuild());
      print(json, report, `measured ${report.clocks} stopped clocks; ${report.changed} changed; counted ${report.day_rows} rows of day counts afresh`);
    },
  }),
  command({
    name: 'workspace create',
    summary: 'Create a workspace.',
    options: { name: { type: 'string', value: 'NAME', required: true, parse: nonBlank, help: 'its name' }, json: JSON_FLAG },
    async run({ name, json }) {
      const workspace = await withAdmin((admin) => admin.createWorkspace(name));
      print(json, workspace, `workspace ${workspace.id} "${workspace.name}" created`);
    },
  }),
  command({
    name: 'workspace list',
    summary: 'List every workspace, oldest first: id, created_at, name.',
    options: { json: JSON_FLAG },
    async run({ json }) {
      const workspaces = await withAdmin((admin) => admin.listWorkspaces());
      printList(json, workspaces, (w) => [w.id, w.created_at, w.name], 'no workspaces');
    },
  }),
  command({
    name: 'member create',
    summary: 'Add a member to a workspace. With --email a user account is created or reused; without, a chat-integration member.',
    options: {
      workspace: WORKSPACE,
      name: { type: 'string', value: 'NAME', required: true, parse: nonBlank, help: 'the display name' },
      role: { type: 'string', value: MEMBER_ROLES.join('|'), required: true, parse: memberRole, help: 'the member\'s role' },
      email: { type: 'string', value: 'EMAIL', parse: emailAddress, help: 'the user account\'s email address' },
      json: JSON_FLAG,
    },
    async run({ workspace, name, role, email, json }) {
      const member = await withAdmin((admin) => admin.createMember({ workspaceId: workspace, name, role, email }));
      print(json, member, `member ${member.id} "${name}" (${member.role}) created`);
    },
  }),
  command({
    name: 'member invite',
    summary:
      'Invite someone to a workspace: prints a one-time link {base}/app/invite/{token}, valid 7 days, where they set a name and a ' +
      'password. {base} is LOOPDESK_PUBLIC_URL, else http://HOST:PORT.',
    options: {
      workspace: WORKSPACE,
      email: { type: 'string', value: 'EMAIL', required: true, parse: emailAddress, help: 'who to invite' },
      role: { type: 'string', value: MEMBER_ROLES.join('|'), required: true, parse: memberRole, help: 'the role they join with' },
      json: JSON_FLAG,
    },
    async run({ workspace, email, role, json }) {
      const invitation = await withServices(({ invitations }, config) =>
        invitations.createAsAdministrator({ workspaceId: workspace, email, role }, serverBase(config)));
      print(json, invitation, `invitation for ${invitation.email} (${invitation.role}), valid until ${invitation.expires_at}; the link works once:\n${invitation.url}`);
    },
  }),
  command({
    name: 'member list',
    summary: 'List the members of a workspace, oldest first: id, role, created_at, display name.',
    options: { workspace: WORKSPACE, json: JSON_FLAG },
    async run({ workspace, json }) {
      const members = await withAdmin((admin) => admin.listMembers(workspace));
      printList(json, members, (m) => [m.id, m.role, m.created_at, m.display_name ?? ''], 'no members');
    },
  }),
  command({
    name: 'key create',
    summary: 'Create an API key; the key itself is printed only this once.',
    options: {
      workspace: WORKSPACE,
      member: { type: 'string', value: 'MEMBER_ID', parse: uuid, help: 'the member the key acts as (see `loopdesk member list`)' },
      'read-only': { type: 'boolean', help: 'the key may only read (GET)' },
      label: { type: 'string', value: 'TEXT', parse: asIs, help: 'a note to recognize the key by' },
      json: JSON_FLAG,
    },
    async run({ workspace, member, 'read-only': readOnly, label, json }) {
      const key = await withAdmin((admin) => admin.createKey({ workspaceId: workspace, memberId: member, readOnly, label }));
      print(json, key, `key ${key.id} created${key.read_only ? ' (read-only)' : ''}; it is shown only once:\n${key.key}`);
    },
  }),
  command({
    name: 'key list',
    summary: 'List the keys of a workspace, oldest first (never the keys themselves): id, access, state, label.',
    options: { workspace: WORKSPACE, json: JSON_FLAG },
    async run({ workspace, json }) {
      const keys = await withAdmin((admin) => admin.listKeys(workspace));
      const columns = (k: (typeof keys)[number]) => [
        k.id, k.read_only ? 'read-only' : 'read-write', k.revoked_at ? `revoked ${k.revoked_at}` : 'active', k.label ?? '',
      ];
      printList(json, keys, columns, 'no keys');
    },
  }),
  command({
    name: 'key revoke',
    summary: 'Revoke a key; revoking it again keeps the first revocation time.',
    options: {
      key: { type: 'string', value: 'KEY_ID', required: true, positional: true, parse: uuid, help: 'the key\'s id (see `loopdesk key list`)' },
      json: JSON_FLAG,
    },
    async run({ key, json }) {
      const revoked = await withAdmin((admin) => admin.revokeKey(key));
      print(json, revoked, `key ${revoked.id} revoked at ${revoked.revoked_at}`);
    },
  }),
];

// --- usage text, from the definitions ---

const isPositional = (spec: OptionSpec): spec is StringOption<unknown> => spec.type === 'string' && spec.positional === true;

/** How an option appears in usage: `--json`, `--name NAME`, or a positional argument's placeholder. */
function usageToken(option: string, spec: OptionSpec): string {
  if (spec.type === 'boolean') return `--${option}`;
  return spec.positional ? spec.value : `--${option} ${spec.value}`;
}

function synopsis({ name, options }: Command): string {
  const parts = Object.entries(options).map(([option, spec]) => {
    const token = usageToken(option, spec);
    return spec.type === 'string' && spec.required ? token : `[${token}]`;
  });
  return ['loopdesk', name, ...parts].join(' ');
}

function commandHelp(definition: Command): string {
  const rows = Object.entries(definition.options).map(([option, spec]) => [usageToken(option, spec), spec.help]);
  rows.push(['-h, --help', 'print this help']);
  const optionLines = alignedLines(rows).replace(/^/gm, '  ');
  return `usage: ${synopsis(definition)}\n\n${definition.summary}\n\n${optionLines}\n\n${DATABASE_NOTE}`;
}

/** The overview of several commands: all of them, or one group's (`loopdesk key --help`). */
function commandList(commands: Command[], group?: string): string {
  const invocation = ['loopdesk', group, '<command>'].filter((part) => part !== undefined).join(' ');
  const entries = commands.map((c) => `  ${synopsis(c)}\n      ${c.summary}`).join('\n');
  return `usage: ${invocation} [options]\n\n${entries}\n\nRun \`${invocation} --help\` for a command's options.\n${DATABASE_NOTE}`;
}

// --- parsing and dispatch ---

type Parsed = { help: true } | { help: false; values: Record<string, unknown> };

function parseCommand({ name, options }: Command, args: string[]): Parsed {
  const named = Object.entries(options).filter(([, spec]) => !isPositional(spec));
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: { ...Object.fromEntries(named.map(([option, spec]) => [option, { type: spec.type }])), help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    // parseArgs explains at length, over several lines; its first sentence names the problem.
    throw new UsageError((error as Error).message.split(/\.(?:\s|$)/)[0]);
  }
  if (parsed.values.help === true) return { help: true };

  const positional = Object.values(options).find(isPositional);
  if (positional && parsed.positionals.length !== 1) throw new UsageError(`${name} takes exactly one ${positional.value}`);
  if (!positional && parsed.positionals.length > 0) throw new UsageError(`unexpected argument "${parsed.positionals[0]}"`);

  const values: Record<string, unknown> = {};
  for (const [option, spec] of Object.entries(options)) {
    if (spec.type === 'boolean') {
      values[option] = parsed.values[option] === true;
      continue;
    }
    const text = isPositional(spec) ? parsed.positionals[0] : (parsed.values[option] as string | undefined);
    const label = isPositional(spec) ? spec.value : `--${option}`;
    if (text === undefined && spec.required) throw new UsageError(`${label} is required`);
    values[option] = text === undefined ? undefined : spec.parse(text, label);
  }
  return { help: false, values };
}

function parseOrPointToHelp(definition: Command, args: string[]): Parsed {
  try {
    return parseCommand(definition, args);
  } catch (error) {
    throw error instanceof UsageError ? new UsageError(error.message, definition.name) : error;
  }
}

async function execute(definition: Command, args: string[]): Promise<void> {
  const parsed = parseOrPointToHelp(definition, args);
  if (parsed.help) return printText(commandHelp(definition));
  return definition.run(parsed.values as OptionValues<OptionSpecs>);
}

async function run(argv: string[]): Promise<void> {
  const [word = 'serve', ...rest] = argv;
  if (word === 'help' || HELP_FLAGS.includes(word)) return printText(commandList(COMMANDS));
  const group = COMMANDS.filter((c) => c.name.split(' ')[0] === word);
  if (group.length === 0) throw new UsageError(`unknown command "${word}"`);
  const single = group.find((c) => c.name === word);
  if (single) return execute(single, rest);

  const [sub, ...args] = rest;
  if (sub !== undefined && HELP_FLAGS.includes(sub)) return printText(commandList(group, word));
  const definition = group.find((c) => c.name === `${word} ${sub}`);
  if (!definition) throw new UsageError(`unknown command "${[word, sub].filter((part) => part !== undefined).join(' ')}"`, word);
  return execute(definition, args);
}

function failureMessage(error: unknown): string {
  if (error instanceof MissingDatabaseError) return `${error.message}; set DATABASE_URL`;
  if (error instanceof ListenError || error instanceof AppError || error instanceof NewerDatabaseError || error instanceof BackupError || error instanceof CopyRefusedError) return error.message;
  return `failed: ${(error as Error).message}`;
}

/** Runs one command (`serve` until it listens) and gives its exit status: 0, 1 when it failed, 2 for bad arguments. */
export async function runCommand(argv: string[], to: Invocation): Promise<number> {
  invocation = to;
  exitStatus = 0;
  try {
    await run(argv);
    return exitStatus;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      to.stderr(`loopdesk: ${error.message}${error instanceof UsageError ? ` (see ${error.helpCommand})` : ''}\n`);
      return 2;
    }
    if (error instanceof ExternalBackupError) {
      to.stderr(`${error.procedure}\n`);
      return 2;
    }
    to.stderr(`loopdesk: ${failureMessage(error).split('\n')[0]}\n`);
    return 1;
  }
}

export async function main(argv: string[]): Promise<void> {
  const status = await runCommand(argv, {
    env: process.env,
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
  });
  // At once: a server that failed to start may still hold what keeps the process alive.
  if (status !== 0) process.exit(status);
}
