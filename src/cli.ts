// The admin CLI (bin/loopdesk.js): serve, migrate, and workspace/member/key administration on
// DATABASE_URL directly. Bad arguments exit 2; a missing workspace, member or key exits 1.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { createDatabase, type DatabaseHandle } from './db/database.js';
import { MEMBER_ROLES, type MemberRole } from './domain/actor.js';
import { AppError } from './errors.js';
import { parseUuid } from './lib/ids.js';
import { createServices } from './services.js';

class UsageError extends Error {}

const USAGE = `usage: loopdesk <command> [options]

  serve                                          start the server (default)
  migrate [--json]                               apply pending migrations
  workspace create --name NAME [--json]
  member create --workspace WS_ID --name NAME --role owner|admin|agent [--email EMAIL] [--json]
  key create --workspace WS_ID [--member MEMBER_ID] [--read-only] [--label TEXT] [--json]
  key list --workspace WS_ID [--json]
  key revoke KEY_ID [--json]

Environment: DATABASE_URL (default sqlite:./data/loopdesk.db), PORT, HOST.`;

type Options = Record<string, string | boolean | undefined>;

function parse(args: string[], options: Record<string, { type: 'string' | 'boolean' }>): { values: Options; positionals: string[] } {
  try {
    return parseArgs({ args, options: { ...options, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const optional = (values: Options, name: string): string | undefined =>
  typeof values[name] === 'string' ? (values[name] as string) : undefined;

function required(values: Options, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

function uuidOption(values: Options, name: string): string {
  const id = parseUuid(required(values, name));
  if (!id) throw new UsageError(`--${name} must be a UUID`);
  return id;
}

function noPositionals(positionals: string[]): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
}

function print(json: boolean, value: unknown, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
}

async function withDatabase<T>(fn: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = createDatabase(config.databaseUrl, config.database);
  try {
    await database.migrate();
    return await fn(database);
  } finally {
    await database.close();
  }
}

async function run(argv: string[]): Promise<void> {
  const [command = 'serve', sub, ...rest] = argv;
  const action = `${command} ${sub ?? ''}`.trim();

  if (command === 'serve') {
    noPositionals(sub ? [sub, ...rest] : []);
    // Loaded only here: the HTTP stack would double the start-up time of every admin command.
    const { startServer } = await import('./main.js');
    return startServer(loadConfig());
  }
  if (command === 'migrate') {
    const { values, positionals } = parse(sub ? [sub, ...rest] : rest, {});
    noPositionals(positionals);
    const config = loadConfig();
    const database = createDatabase(config.databaseUrl, config.database);
    try {
      const applied = await database.migrate();
      return print(values.json === true, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'already up to date');
    } finally {
      await database.close();
    }
  }

  switch (action) {
    case 'workspace create': {
      const { values, positionals } = parse(rest, { name: { type: 'string' } });
      noPositionals(positionals);
      const name = required(values, 'name');
      const workspace = await withDatabase((db) => createServices(db).admin.createWorkspace(name));
      return print(values.json === true, workspace, `workspace ${workspace.id} "${workspace.name}" created`);
    }
    case 'member create': {
      const { values, positionals } = parse(rest, {
        workspace: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, email: { type: 'string' },
      });
      noPositionals(positionals);
      const workspaceId = uuidOption(values, 'workspace');
      const name = required(values, 'name');
      const role = required(values, 'role');
      if (!MEMBER_ROLES.includes(role as MemberRole)) throw new UsageError(`--role must be one of ${MEMBER_ROLES.join(', ')}`);
      const email = optional(values, 'email') === undefined ? undefined : required(values, 'email');
      const member = await withDatabase((db) =>
        createServices(db).admin.createMember({ workspaceId, name, role: role as MemberRole, email }),
      );
      return print(values.json === true, member, `member ${member.id} "${name}" (${member.role}) created`);
    }
    case 'key create': {
      const { values, positionals } = parse(rest, {
        workspace: { type: 'string' }, member: { type: 'string' }, 'read-only': { type: 'boolean' }, label: { type: 'string' },
      });
      noPositionals(positionals);
      const workspaceId = uuidOption(values, 'workspace');
      const memberId = optional(values, 'member') === undefined ? undefined : uuidOption(values, 'member');
      const key = await withDatabase((db) =>
        createServices(db).admin.createKey({ workspaceId, memberId, readOnly: values['read-only'] === true, label: optional(values, 'label') }),
      );
      return print(values.json === true, key, `key ${key.id} created${key.read_only ? ' (read-only)' : ''}; it is shown only once:\n${key.key}`);
    }
    case 'key list': {
      const { values, positionals } = parse(rest, { workspace: { type: 'string' } });
      noPositionals(positionals);
      const workspaceId = uuidOption(values, 'workspace');
      const keys = await withDatabase((db) => createServices(db).admin.listKeys(workspaceId));
      const lines = keys.map((k) => `${k.id}  ${k.read_only ? 'read-only' : 'read-write'}  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}  ${k.label ?? ''}`);
      return print(values.json === true, { data: keys }, lines.join('\n') || 'no keys');
    }
    case 'key revoke': {
      const { values, positionals } = parse(rest, {});
      if (positionals.length !== 1) throw new UsageError('key revoke takes exactly one KEY_ID');
      const keyId = parseUuid(positionals[0]);
      if (!keyId) throw new UsageError('KEY_ID must be a UUID');
      const revoked = await withDatabase((db) => createServices(db).admin.revokeKey(keyId));
      return print(values.json === true, revoked, `key ${revoked.id} revoked at ${revoked.revoked_at}`);
    }
    default:
      throw new UsageError(`unknown command "${action}"`);
  }
}

export async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  try {
    await run(argv);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`loopdesk: ${error.message}${error instanceof UsageError ? ' (see loopdesk --help)' : ''}\n`);
      process.exit(2);
    }
    const message = error instanceof AppError ? error.message : `failed: ${(error as Error).message}`;
    process.stderr.write(`loopdesk: ${message.split('\n')[0]}\n`);
    process.exit(1);
  }
}
