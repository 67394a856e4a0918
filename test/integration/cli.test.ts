import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createServices } from '../../src/services.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { runCli, type CliResult } from '../helpers/processes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** The one JSON object a `--json` command prints, after checking it succeeded quietly. */
function json(result: CliResult): any {
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  assert.equal(result.stdout.trimEnd().split('\n').length, 1, 'exactly one line');
  return JSON.parse(result.stdout);
}

function assertOneLineError(result: CliResult, code: number, pattern: RegExp): void {
  assert.equal(result.code, code, `exit status (stderr: ${result.stderr})`);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^[^\n]+\n$/, 'one line on stderr');
  assert.match(result.stderr, pattern);
}

/** The lines a human-readable command printed, after checking it succeeded quietly. */
function lines(result: CliResult): string[] {
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  return result.stdout.trimEnd().split('\n');
}

/** One line per row, holding the row's cells, each column starting at the same place on every line. */
function assertAlignedRows(printed: string[], rows: string[][]): void {
  const cellsOf = (line: string) => line.split(/ {2,}/);
  const startsOf = (line: string) => [...line.matchAll(/(?:^| {2,})(?=\S)/g)].map((match) => match.index + match[0].length);
  assert.deepEqual(printed.map(cellsOf), rows);
  const starts = printed.map(startsOf);
  for (const lineStarts of starts) assert.deepEqual(lineStarts, starts[0].slice(0, lineStarts.length), `aligned columns:\n${printed.join('\n')}`);
}

/** A path in a new temporary directory; nothing exists at it yet. */
const pathInNewDirectory = (...parts: string[]) => join(mkdtempSync(join(tmpdir(), 'loopdesk-cli-')), ...parts);

// The executable as an operator runs it: bin/loopdesk.js, dist/, and the exit status and streams a
// command ends with. The tests after this one run the commands in their own process
// (runCliInProcess: the same entry function, a process start less per command); one run of each
// way a command ends proves what they leave to the process. On SQLite only: what is proved here is
// the process's, not the database's.
describe('loopdesk as a process', () => {
  it('prints --help on stdout and exits 0', async () => {
    const result = await runCli(['--help'], {});
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.match(result.stdout, /^usage: loopdesk <command> \[options\]\n/);
  });

  it('exits 2 for bad arguments and 1 for a database that does not exist, with one line on stderr', async () => {
    assertOneLineError(await runCli(['frobnicate'], {}), 2, /^loopdesk: unknown command "frobnicate" \(see loopdesk --help\)\n$/);
    const file = pathInNewDirectory('loopdesk.db');
    assertOneLineError(await runCli(['workspace', 'list'], { DATABASE_URL: `sqlite:${file}` }), 1, new RegExp(`^loopdesk: no database at ${file}; set DATABASE_URL\n$`));
    assert.deepEqual(readdirSync(join(file, '..')), []);
  });

  // migrate --check's exit 1 with its answer printed is upgrades.test.ts's, as a process on both databases.
  it('exits 0 with one JSON line on stdout from a command on the database and one of the services', async () => {
    const env = { DATABASE_URL: await freshDatabaseUrl('sqlite') };
    assert.equal(json(await runCli(['migrate', '--json'], env)).applied[0], '0001_init');
    assert.equal(json(await runCli(['workspace', 'create', '--name', 'Acme', '--json'], env)).name, 'Acme');
  });

  it('exits 1 on a Node older than package.json\'s engines, saying which Node to install, before loading anything', async () => {
    const node20 = `--import=data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.19.0'})`;
    const result = await runCli(['workspace', 'list'], { NODE_OPTIONS: node20 });
    assertOneLineError(result, 1, /this is Node 20\.19\.0; Loopdesk needs Node >=22\.18 .*Install Node 24 \(README\.md, "Requirements"\)/);
  });
});

// Argument errors are found before the database is opened, so one dialect is enough.
describe('loopdesk CLI arguments', () => {
  let env: Record<string, string>;
  const cli = (...args: string[]) => runCliInProcess(args, env);
  before(async () => {
    env = { DATABASE_URL: await freshDatabaseUrl('sqlite') };
  });

  it('exits 2 with one line on stderr for bad arguments', async () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command "frobnicate"/],
      [['workspace'], /unknown command "workspace"/],
      [['workspace', 'delete', '--name', 'x'], /unknown command "workspace delete"/],
      [['workspace', 'create'], /--name is required/],
      [['workspace', 'create', '--name', '   '], /--name is required/],
      [['workspace', 'create', '--name', 'x', 'extra'], /unexpected argument "extra"/],
      [['workspace', 'create', '--name', 'x', '--colour', 'red'], /--colour/],
      [['key', 'create', '--workspace', MISSING_ID, '--label', '--read-only'], /--label/],
      [['key', 'create', '--workspace', MISSING_ID, '--label'], /--label/],
      [['member', 'create', '--workspace', MISSING_ID, '--name', 'X', '--role', 'boss'], /--role must be one of owner, admin, agent/],
      [['member', 'create', '--workspace', MISSING_ID, '--name', 'X'], /--role is required/],
      [['member', 'create', '--workspace', 'not-a-uuid', '--name', 'X', '--role', 'agent'], /--workspace must be a UUID/],
      [['member', 'create', '--workspace', MISSING_ID, '--role', 'agent'], /--name is required/],
      [['key', 'create'], /--workspace is required/],
      [['key', 'create', '--workspace', MISSING_ID, '--member', '12345'], /--member must be a UUID/],
      [['key', 'list', '--workspace', `${MISSING_ID}0`], /--workspace must be a UUID/],
      [['key', 'revoke'], /exactly one KEY_ID/],
      [['key', 'revoke', 'abc'], /KEY_ID must be a UUID/],
      [['key', 'revoke', MISSING_ID, MISSING_ID], /exactly one KEY_ID/],
      [['serve', 'now'], /unexpected argument "now"/],
      [['migrate', 'now'], /unexpected argument "now"/],
      [['migrate', '--check', 'now'], /unexpected argument "now"/],
      [['backup'], /exactly one FILE/],
      [['backup', 'a.db', 'b.db'], /exactly one FILE/],
      [['copy'], /--to is required/],
      [['copy', '--to', 'mysql://localhost/x'], /--to must start with sqlite:, postgres:\/\/ or postgresql:\/\//],
      [['workspace', 'list', 'extra'], /unexpected argument "extra"/],
      [['member', 'list'], /--workspace is required/],
      [['member', 'list', '--workspace', 'not-a-uuid'], /--workspace must be a UUID/],
      [['key', 'frobnicate', '--help'], /unknown command "key frobnicate"/],
      [['frobnicate', '--help'], /unknown command "frobnicate"/],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    cases.forEach(([, pattern], i) => assertOneLineError(results[i], 2, pattern));
  });

  it('exits 2 with one line naming --email for an email address that is not one', async () => {
    const badEmails = ['not-an-email', 'ann@', '@example.com', 'ann@example', 'ann smith@example.com', 'ann@@example.com', 'ann@example..com', ''];
    const results = await Promise.all(badEmails.map((email) =>
      cli('member', 'create', '--workspace', MISSING_ID, '--name', 'Ann', '--role', 'agent', '--email', email),
    ));
    for (const result of results) assertOneLineError(result, 2, /^loopdesk: --email (must be an email address|is required) \(see loopdesk member create --help\)\n$/);
  });

  it('points a bad argument to the help of its command', async () => {
    assertOneLineError(await cli('key', 'create', '--label'), 2, /--label.*\(see loopdesk key create --help\)\n$/);
    assertOneLineError(await cli('key', 'frobnicate'), 2, /\(see loopdesk key --help\)\n$/);
    assertOneLineError(await cli('frobnicate'), 2, /\(see loopdesk --help\)\n$/);
  });

  it('exits 2 for an unusable DATABASE_URL', async () => {
    const result = await runCliInProcess(['workspace', 'create', '--name', 'x'], { DATABASE_URL: 'mysql://localhost/x' });
    assertOneLineError(result, 2, /DATABASE_URL/);
  });
});

// Every command's usage line, as docs/api.md lists them (plus the listings).
const SYNOPSES: Record<string, string> = {
  serve: 'loopdesk serve',
  migrate: 'loopdesk migrate [--check] [--json]',
  backup: 'loopdesk backup FILE [--json]',
  copy: 'loopdesk copy --to URL [--json]',
  'workspace create': 'loopdesk workspace create --name NAME [--json]',
  'workspace list': 'loopdesk workspace list [--json]',
  'member create': 'loopdesk member create --workspace WS_ID --name NAME --role owner|admin|agent [--email EMAIL] [--json]',
  'member invite': 'loopdesk member invite --workspace WS_ID --email EMAIL --role owner|admin|agent [--json]',
  'member list': 'loopdesk member list --workspace WS_ID [--json]',
  'key create': 'loopdesk key create --workspace WS_ID [--member MEMBER_ID] [--read-only] [--label TEXT] [--json]',
  'key list': 'loopdesk key list --workspace WS_ID [--json]',
  'key revoke': 'loopdesk key revoke KEY_ID [--json]',
};
const COMMAND_NAMES = Object.keys(SYNOPSES);

describe('loopdesk --help', () => {
  const databaseFile = pathInNewDirectory('data', 'loopdesk.db');
  const cli = (...args: string[]) => runCliInProcess(args, { DATABASE_URL: `sqlite:${databaseFile}` });

  /** The help text, after checking that it went to stdout with exit status 0. */
  async function help(...args: string[]): Promise<string> {
    const result = await cli(...args);
    assert.equal(result.code, 0, `loopdesk ${args.join(' ')}: ${result.stderr}`);
    assert.equal(result.stderr, '');
    return result.stdout;
  }

  it('--help, -h and help print every command', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const text = await help(...args);
      assert.match(text, /^usage: loopdesk <command> \[options\]\n/);
      for (const synopsis of Object.values(SYNOPSES)) assert.ok(text.includes(`  ${synopsis}\n`), `${args[0]} lists "${synopsis}"`);
    }
  });

  it('a command group\'s --help and -h print its subcommands only', async () => {
    for (const group of ['workspace', 'member', 'key']) {
      for (const flag of ['--help', '-h']) {
        const text = await help(group, flag);
        assert.match(text, new RegExp(`^usage: loopdesk ${group} <command> \\[options\\]\n`));
        for (const name of COMMAND_NAMES) {
          assert.equal(text.includes(`  ${SYNOPSES[name]}\n`), name.startsWith(`${group} `), `${group} ${flag} and "${name}"`);
        }
      }
    }
  });

  it('every command\'s --help and -h print its usage line and each of its options', async () => {
    for (const name of COMMAND_NAMES) {
      for (const flag of ['--help', '-h']) {
        const text = await help(...name.split(' '), flag);
        assert.ok(text.startsWith(`usage: ${SYNOPSES[name]}\n`), `${name} ${flag}:\n${text}`);
        // The options and positional arguments of the usage line, without their values.
        const words = SYNOPSES[name].replace(/[[\]]/g, '').split(' ').slice(1 + name.split(' ').length);
        const explained = words.filter((word, i) => word.startsWith('--') || !words[i - 1]?.startsWith('--'));
        for (const word of [...explained, '-h, --help']) assert.ok(text.includes(`\n  ${word}`), `${name} ${flag} explains ${word}`);
      }
    }
  });

  it('--help wins over the other arguments, missing or not', async () => {
    assert.ok((await help('key', 'revoke', '--help')).startsWith(`usage: ${SYNOPSES['key revoke']}\n`));
    assert.ok((await help('workspace', 'create', '--name', 'Acme', '--help')).startsWith(`usage: ${SYNOPSES['workspace create']}\n`));
  });

  it('touches no database', () => {
    assert.equal(existsSync(join(databaseFile, '..')), false, 'neither the file nor its directory was created');
  });
});

describe('loopdesk with a SQLite file that does not exist', () => {
  const ANY_ID = MISSING_ID;
  const ADMIN_COMMANDS = [
    ['workspace', 'create', '--name', 'Acme'],
    ['workspace', 'list'],
    ['member', 'create', '--workspace', ANY_ID, '--name', 'Ann', '--role', 'owner', '--email', 'ann@example.com'],
    ['member', 'list', '--workspace', ANY_ID],
    ['key', 'create', '--workspace', ANY_ID],
    ['key', 'list', '--workspace', ANY_ID],
    ['key', 'revoke', ANY_ID],
  ];

  async function assertRefused(databaseUrl: string, absolutePath: string): Promise<void> {
    const runs = ADMIN_COMMANDS.flatMap((args) => [args, [...args, '--json']]);
    const results = await Promise.all(runs.map((args) => runCliInProcess(args, { DATABASE_URL: databaseUrl })));
    results.forEach((result, i) => {
      assert.equal(result.code, 1, `loopdesk ${runs[i].join(' ')}: ${result.stderr}`);
      assert.equal(result.stdout, '');
      assert.equal(result.stderr, `loopdesk: no database at ${absolutePath}; set DATABASE_URL\n`);
    });
  }

  it('admin commands exit 1 naming the absolute path, and create no file or directory', async () => {
    const file = pathInNewDirectory('loopdesk.db');
    await assertRefused(`sqlite:${file}`, file);
    assert.deepEqual(readdirSync(join(file, '..')), []);
  });

  it('a relative path is taken from the current directory and reported absolute', async () => {
    const file = pathInNewDirectory('data', 'loopdesk.db');
    await assertRefused(`sqlite:./${relative(process.cwd(), file)}`, file);
    assert.equal(existsSync(join(file, '..')), false);
  });

  it('migrate creates it, and the admin commands then use it', async () => {
    const file = pathInNewDirectory('data', 'loopdesk.db');
    const env = { DATABASE_URL: `sqlite:${file}` };
    assert.equal(json(await runCliInProcess(['migrate', '--json'], env)).applied[0], '0001_init');
    assert.ok(existsSync(file));
    assert.deepEqual(json(await runCliInProcess(['workspace', 'list', '--json'], env)), { data: [] });
  });

  it('sqlite::memory: is not a file and is unaffected', async () => {
    assert.deepEqual(json(await runCliInProcess(['workspace', 'list', '--json'], { DATABASE_URL: 'sqlite::memory:' })), { data: [] });
  });
});

for (const dialect of DIALECTS) {
  describe(`loopdesk admin CLI [${dialect}]`, () => {
    let env: Record<string, string>;
    const cli = (...args: string[]) => runCliInProcess(args, env);

    before(async () => {
      env = { DATABASE_URL: await freshDatabaseUrl(dialect) };
    });

    it('migrate --json applies every migration once, then nothing', async () => {
      const first = json(await cli('migrate', '--json'));
      assert.deepEqual(Object.keys(first), ['applied']);
      assert.equal(first.applied[0], '0001_init');
      assert.deepEqual(first.applied, [...first.applied].sort());
      assert.deepEqual(json(await cli('migrate', '--json')), { applied: [] });
    });

    it('workspace create --json prints { id, name, created_at }', async () => {
      const workspace = json(await cli('workspace', 'create', '--name', '  Acme Corp ', '--json'));
      assert.deepEqual(Object.keys(workspace), ['id', 'name', 'created_at']);
      assert.match(workspace.id, UUID);
      assert.equal(workspace.name, 'Acme Corp');
      assert.match(workspace.created_at, ISO_MS);
    });

    it('prints a human line without --json', async () => {
      const result = await cli('workspace', 'create', '--name', 'Readable');
      assert.equal(result.code, 0);
      assert.match(result.stdout, /^workspace [0-9a-f-]{36} "Readable" created\n$/);
    });

    describe('members and keys', () => {
      let workspaceId: string;
      let otherWorkspaceId: string;
      before(async () => {
        workspaceId = json(await cli('workspace', 'create', '--name', 'Keys', '--json')).id;
        otherWorkspaceId = json(await cli('workspace', 'create', '--name', 'Other', '--json')).id;
      });

      it('member create without --email prints a Member with user_id null', async () => {
        const member = json(await cli('member', 'create', '--workspace', workspaceId, '--name', 'Chat Bot', '--role', 'agent', '--json'));
        assert.deepEqual(Object.keys(member), ['id', 'user_id', 'role', 'display_name', 'avatar_url', 'availability', 'created_at']);
        assert.match(member.id, UUID);
        assert.equal(member.user_id, null);
        assert.equal(member.role, 'agent');
        assert.equal(member.display_name, 'Chat Bot');
        assert.equal(member.avatar_url, null);
        assert.match(member.created_at, ISO_MS);
      });

      it('member create --email creates a user account and reuses it for the same email', async () => {
        const email = `ann.${dialect}@example.test`;
        const first = json(await cli('member', 'create', '--workspace', workspaceId, '--name', 'Ann', '--role', 'owner', '--email', email, '--json'));
        const second = json(await cli(
          'member', 'create', '--workspace', otherWorkspaceId, '--name', 'Ann Again', '--role', 'admin', '--email', email.toUpperCase(), '--json',
        ));
        const stranger = json(await cli('member', 'create', '--workspace', workspaceId, '--name', 'Bo', '--role', 'admin', '--email', `bo.${email}`, '--json'));
        assert.match(first.user_id, UUID);
        assert.equal(second.user_id, first.user_id);
        assert.notEqual(second.id, first.id);
        assert.notEqual(stranger.user_id, first.user_id);
        assert.equal(first.role, 'owner');
        assert.equal(second.role, 'admin');
      });

      it('member invite --json prints { id, email, role, url, expires_at }: a link the invitation page takes, valid 7 days', async () => {
        const invitation = json(await runCliInProcess(
          ['member', 'invite', '--workspace', workspaceId, '--email', `Invited.${dialect}@example.test`, '--role', 'admin', '--json'],
          { ...env, HOST: '0.0.0.0', PORT: '8080' },
        ));
        assert.deepEqual(Object.keys(invitation), ['id', 'email', 'role', 'url', 'expires_at']);
        assert.equal(invitation.email, `invited.${dialect}@example.test`);
        assert.equal(invitation.role, 'admin');
        assert.match(invitation.url, /^http:\/\/0\.0\.0\.0:8080\/app\/invite\/ldi_[0-9A-Za-z]{40}$/);
        assert.equal(Date.parse(invitation.expires_at) - Date.now() > 6.9 * 24 * 3600_000, true);
        const database = createDatabase(env.DATABASE_URL);
        try {
          const shown = await createServices(database).invitations.describe(invitation.url.split('/').pop());
          assert.deepEqual(shown, { email: invitation.email, workspace_name: 'Keys', role: 'admin' });
        } finally {
          await database.close();
        }
      });

      it('member invite prints the link under LOOPDESK_PUBLIC_URL, and refuses unknown workspaces and roles', async () => {
        const text = await runCliInProcess(
          ['member', 'invite', '--workspace', workspaceId, '--email', `public.${dialect}@example.test`, '--role', 'agent'],
          { ...env, LOOPDESK_PUBLIC_URL: 'https://support.example.com' },
        );
        assert.equal(text.code, 0, text.stderr);
        assert.match(text.stdout, /^invitation for public\.\w+@example\.test \(agent\), valid until \S+; the link works once:\nhttps:\/\/support\.example\.com\/app\/invite\/ldi_\w{40}\n$/);
        assertOneLineError(await cli('member', 'invite', '--workspace', '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', '--email', 'x@example.test', '--role', 'agent'), 1, /workspace .* not found/);
        assertOneLineError(await cli('member', 'invite', '--workspace', workspaceId, '--email', 'x@example.test', '--role', 'king'), 2, /--role must be one of/);
      });

      describe('keys against the API', () => {
        let database: DatabaseHandle;
        let app: FastifyInstance;
        let memberId: string;
        before(async () => {
          memberId = json(await cli('member', 'create', '--workspace', workspaceId, '--name', 'Key Holder', '--role', 'admin', '--json')).id;
          database = createDatabase(env.DATABASE_URL);
          app = await buildApp({ database, services: createServices(database) });
        });
        after(async () => {
          await app.close();
          await database.close();
        });

        const call = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
          app.inject({ method, url, payload, headers: { authorization: `Bearer ${key}` } });

        it('key create --member --read-only --label prints { id, key, workspace_id, member_id, read_only, created_at }', async () => {
          const issued = json(await cli('key', 'create', '--workspace', workspaceId, '--member', memberId, '--read-only', '--label', 'ci bot', '--json'));
          assert.deepEqual(Object.keys(issued), ['id', 'key', 'workspace_id', 'member_id', 'read_only', 'created_at']);
          assert.match(issued.id, UUID);
          assert.match(issued.key, /^ldk_[0-9A-Za-z]{40}$/);
          assert.equal(issued.workspace_id, workspaceId);
          assert.equal(issued.member_id, memberId);
          assert.equal(issued.read_only, true);
          assert.match(issued.created_at, ISO_MS);

          const me = await call(issued.key, 'GET', '/api/v1/me');
          assert.equal(me.statusCode, 200);
          assert.equal(me.json().data.api_key_id, issued.id);
          assert.equal(me.json().data.member.id, memberId);
          assert.equal((await call(issued.key, 'POST', '/api/v1/products', { name: 'Nope' })).statusCode, 403);
        });

        it('key create without --member gives a read-write key with no member', async () => {
          const issued = json(await cli('key', 'create', '--workspace', workspaceId, '--json'));
          assert.equal(issued.member_id, null);
          assert.equal(issued.read_only, false);
          const me = await call(issued.key, 'GET', '/api/v1/me');
          assert.deepEqual(me.json().data, { workspace_id: workspaceId, api_key_id: issued.id, member: null });
          assert.equal((await call(issued.key, 'POST', '/api/v1/products', { name: 'Made By CLI Key' })).statusCode, 201);
        });

        it('key list prints every key of the workspace, never the key itself', async () => {
          const issued = json(await cli('key', 'create', '--workspace', workspaceId, '--label', 'listed', '--json'));
          const result = await cli('key', 'list', '--workspace', workspaceId, '--json');
          const listing = json(result);
          assert.deepEqual(Object.keys(listing), ['data']);
          assert.ok(!result.stdout.includes(issued.key));
          assert.ok(!result.stdout.includes('ldk_'));
          for (const key of listing.data) {
            assert.deepEqual(Object.keys(key), ['id', 'label', 'workspace_id', 'member_id', 'read_only', 'created_at', 'revoked_at', 'last_used_at']);
            assert.equal(key.workspace_id, workspaceId);
          }
          assert.deepEqual(listing.data.at(-1), {
            id: issued.id, label: 'listed', workspace_id: workspaceId, member_id: null, read_only: false,
            created_at: issued.created_at, revoked_at: null, last_used_at: null,
          });
          const others = json(await cli('key', 'list', '--workspace', otherWorkspaceId, '--json'));
          assert.deepEqual(others, { data: [] });
        });

        it('key revoke prints { id, revoked_at } and the key stops working', async () => {
          const issued = json(await cli('key', 'create', '--workspace', workspaceId, '--member', memberId, '--json'));
          assert.equal((await call(issued.key, 'GET', '/api/v1/me')).statusCode, 200);
          const revoked = json(await cli('key', 'revoke', issued.id, '--json'));
          assert.deepEqual(Object.keys(revoked), ['id', 'revoked_at']);
          assert.equal(revoked.id, issued.id);
          assert.match(revoked.revoked_at, ISO_MS);
          const after = await call(issued.key, 'GET', '/api/v1/me');
          assert.equal(after.statusCode, 401);
          assert.equal(after.json().error_code, 'unauthorized');

          const listed = json(await cli('key', 'list', '--workspace', workspaceId, '--json')).data.find((k: { id: string }) => k.id === issued.id);
          assert.equal(listed.revoked_at, revoked.revoked_at);
          assert.match(listed.last_used_at, ISO_MS);
          assert.equal(json(await cli('key', 'revoke', issued.id, '--json')).revoked_at, revoked.revoked_at, 'revoking again keeps the first time');
        });
      });

      it('exits 1 with one line on stderr when the workspace, member or key does not exist', async () => {
        const cases: [string[], RegExp][] = [
          [['member', 'create', '--workspace', MISSING_ID, '--name', 'X', '--role', 'agent'], /workspace .* not found/],
          [['key', 'create', '--workspace', MISSING_ID], /workspace .* not found/],
          [['key', 'create', '--workspace', workspaceId, '--member', MISSING_ID], /member .* not found/],
          [['key', 'list', '--workspace', MISSING_ID], /workspace .* not found/],
          [['member', 'list', '--workspace', MISSING_ID], /workspace .* not found/],
          [['key', 'revoke', MISSING_ID], /key .* not found/],
        ];
        const results = await Promise.all(cases.map(([args]) => cli(...args, '--json')));
        cases.forEach(([, pattern], i) => assertOneLineError(results[i], 1, pattern));
      });

      it('exits 1 for a member of another workspace', async () => {
        const stranger = json(await cli('member', 'create', '--workspace', otherWorkspaceId, '--name', 'Stranger', '--role', 'agent', '--json'));
        assertOneLineError(await cli('key', 'create', '--workspace', workspaceId, '--member', stranger.id), 1, /member .* not found/);
      });
    });

    describe('listings', () => {
      // A database of its own, so that the lists hold exactly what these tests made.
      let listEnv: Record<string, string>;
      const listCli = (...args: string[]) => runCliInProcess(args, listEnv);
      before(async () => {
        listEnv = { DATABASE_URL: await freshDatabaseUrl(dialect) };
        json(await listCli('migrate', '--json'));
      });

      it('workspace list says so when there is none', async () => {
        assert.deepEqual(json(await listCli('workspace', 'list', '--json')), { data: [] });
        assert.deepEqual(lines(await listCli('workspace', 'list')), ['no workspaces']);
      });

      describe('with workspaces, members and keys', () => {
        const workspaces: { id: string; name: string; created_at: string }[] = [];
        before(async () => {
          for (const name of ['Acme', 'Beta Industries', 'C']) workspaces.push(json(await listCli('workspace', 'create', '--name', name, '--json')));
        });

        it('workspace list --json prints { data: [{ id, name, created_at }] } oldest first', async () => {
          assert.deepEqual(json(await listCli('workspace', 'list', '--json')), { data: workspaces });
        });

        it('workspace list prints one aligned line per workspace: id, created_at, name', async () => {
          assertAlignedRows(lines(await listCli('workspace', 'list')), workspaces.map((w) => [w.id, w.created_at, w.name]));
        });

        it('member list --json prints the members as member create printed them, oldest first, of that workspace only', async () => {
          const [acme, beta, empty] = workspaces;
          const create = async (workspaceId: string, ...args: string[]) =>
            json(await listCli('member', 'create', '--workspace', workspaceId, ...args, '--json'));
          const members = [
            await create(acme.id, '--name', 'Ann Owner', '--role', 'owner', '--email', `ann.${dialect}@example.test`),
            await create(acme.id, '--name', 'Chat Bot', '--role', 'agent'),
            await create(acme.id, '--name', 'Bo', '--role', 'admin'),
          ];
          const betaMember = await create(beta.id, '--name', 'Other', '--role', 'owner');

          assert.deepEqual(json(await listCli('member', 'list', '--workspace', acme.id, '--json')), { data: members });
          assert.deepEqual(json(await listCli('member', 'list', '--workspace', beta.id, '--json')), { data: [betaMember] });
          assert.deepEqual(json(await listCli('member', 'list', '--workspace', empty.id, '--json')), { data: [] });
          assert.deepEqual(lines(await listCli('member', 'list', '--workspace', empty.id)), ['no members']);

          assertAlignedRows(
            lines(await listCli('member', 'list', '--workspace', acme.id)),
            members.map((m) => [m.id, m.role, m.created_at, m.display_name]),
          );
        });

        it('key list prints one aligned line per key: id, access, state, label', async () => {
          const { id } = workspaces[2];
          const readOnly = json(await listCli('key', 'create', '--workspace', id, '--read-only', '--label', 'dashboards', '--json'));
          const unlabelled = json(await listCli('key', 'create', '--workspace', id, '--json'));
          const revoked = json(await listCli('key', 'revoke', json(await listCli('key', 'create', '--workspace', id, '--label', 'old', '--json')).id, '--json'));
          assertAlignedRows(lines(await listCli('key', 'list', '--workspace', id)), [
            [readOnly.id, 'read-only', 'active', 'dashboards'],
            [unlabelled.id, 'read-write', 'active'],
            [revoked.id, 'read-write', `revoked ${revoked.revoked_at}`, 'old'],
          ]);
        });
      });
    });
  });
}
