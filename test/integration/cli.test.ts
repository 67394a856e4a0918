import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createServices } from '../../src/services.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
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

// Argument errors are found before the database is opened, so one dialect is enough.
describe('loopdesk CLI arguments', () => {
  let env: Record<string, string>;
  const cli = (...args: string[]) => runCli(args, env);
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
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    cases.forEach(([, pattern], i) => assertOneLineError(results[i], 2, pattern));
  });

  it('exits 2 for an unusable DATABASE_URL', async () => {
    const result = await runCli(['workspace', 'create', '--name', 'x'], { DATABASE_URL: 'mysql://localhost/x' });
    assertOneLineError(result, 2, /DATABASE_URL/);
  });
});

for (const dialect of DIALECTS) {
  describe(`loopdesk admin CLI [${dialect}]`, () => {
    let env: Record<string, string>;
    const cli = (...args: string[]) => runCli(args, env);

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
        assert.deepEqual(Object.keys(member), ['id', 'user_id', 'role', 'display_name', 'avatar_url', 'created_at']);
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
  });
}
