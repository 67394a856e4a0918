import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { after, describe, it } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { BIN, ServerProcess } from '../helpers/processes.js';

const FIRST_KEY = /curl -H "Authorization: Bearer (ldk_[0-9A-Za-z]{40})" (http:\/\/127\.0\.0\.1:(\d+))\/api\/v1\/me/;

/** The environment of a server on `databaseUrl`: any free port, and no model download. */
const serverEnv = (databaseUrl: string) => ({
  DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOOPDESK_DEDUP_PROVIDER: 'lexical', LOOPDESK_LOG_LEVEL: 'info',
});

const started: ServerProcess[] = [];
function start(databaseUrl: string, env: Record<string, string> = {}): ServerProcess {
  const server = new ServerProcess({ ...serverEnv(databaseUrl), ...env });
  started.push(server);
  return server;
}
after(() => Promise.all(started.map((server) => server.stop('SIGKILL'))));

/** A process's command line, as the kernel has it now (after any exec). */
const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
/** The pid in the server's "Server listening at" log line: the process that serves. */
const listeningPid = (server: ServerProcess) => Number(/"pid":(\d+)[^\n]*Server listening at/.exec(server.stdout)?.[1]);

const getMe = (baseUrl: string, key: string) => fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });

/** A port another process holds (this one), released after the test. */
async function takenPort(): Promise<{ port: number; release: () => void }> {
  const holder: Server = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  return { port: (holder.address() as AddressInfo).port, release: () => holder.close() };
}

describe('loopdesk serve with a port in use', () => {
  const cases = [
    ['its HTTP port', (port: number) => ({ PORT: String(port) }), 'the server', 'PORT'],
    ['its SMTP port', (port: number) => ({ LOOPDESK_SMTP_LISTEN: `127.0.0.1:${port}`, LOOPDESK_INBOUND_DOMAIN: 'in.example.com' }), 'the SMTP receiver', 'LOOPDESK_SMTP_LISTEN'],
  ] as const;
  for (const [what, env, name, variable] of cases) {
    it(`says so in one line naming the port and ${variable}, exits 1, and leaves nothing listening (${what})`, async () => {
      const taken = await takenPort();
      try {
        const server = start(await freshDatabaseUrl('sqlite'), env(taken.port));
        assert.deepEqual(await server.exited, { code: 1, signal: null });
        assert.equal(
          server.stderr,
          `loopdesk: cannot start ${name}: port ${taken.port} on 127.0.0.1 is in use by another process; set ${variable} to another port\n`,
        );
        assert.equal(server.stdout, '', 'no log line says it listens, no warning, no stack trace');
      } finally {
        taken.release();
      }
    });
  }
});

describe('loopdesk serve', () => {
  it('first start creates a Default workspace and prints a key and a curl line that work', async () => {
    const databaseUrl = await freshDatabaseUrl('sqlite');
    const server = start(databaseUrl);
    const [, key, baseUrl, port] = await server.waitFor(FIRST_KEY);
    assert.notEqual(Number(port), 0, 'the actual port, not the requested 0');
    assert.equal(server.stdout.match(/ldk_[0-9A-Za-z]{40}/g)!.filter((k) => k !== key).length, 0, 'one key, printed twice');
    assert.ok(server.stdout.includes(`\n    ${key}\n`), 'the key on a line of its own');

    const res = await getMe(baseUrl, key);
    assert.equal(res.status, 200);
    const me = (await res.json()).data;
    assert.equal(me.member.role, 'owner');
    assert.equal((await (await fetch(`${baseUrl}/api/v1/members`, { headers: { authorization: `Bearer ${key}` } })).json()).pagination.total, 1);
    assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });

    const again = start(databaseUrl);
    const secondUrl = await again.baseUrl();
    assert.equal((await getMe(secondUrl, key)).status, 200, 'the first key still works');
    assert.ok(!again.stdout.includes('ldk_'), 'no key printed on a second start');
    assert.ok(!again.stdout.includes('curl'));
    assert.deepEqual(await again.stop('SIGINT'), { code: 0, signal: null });
  });

  it('on SIGTERM finishes the request in flight, then exits 0 without waiting for the grace period', async () => {
    const server = start(await freshDatabaseUrl('sqlite'), { LOOPDESK_SHUTDOWN_GRACE_MS: '20000' });
    const [, key, baseUrl] = await server.waitFor(FIRST_KEY);
    const { port } = new URL(baseUrl);

    // A client still uploading its body when the signal arrives: the request is in flight.
    const body = JSON.stringify({ name: 'Shipped During Shutdown' });
    const socket = connect(Number(port), '127.0.0.1');
    let response = '';
    socket.setEncoding('utf8').on('data', (chunk) => (response += chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/v1/products HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    server.signal('SIGTERM');
    await server.waitFor(/shutting down/);
    assert.equal(server.child.exitCode, null, 'still running while the request is open');
    socket.write(body.slice(10));
    await closed;
    assert.match(response, /^HTTP\/1\.1 201 /);
    assert.match(response, /"name":"Shipped During Shutdown"/);
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    assert.doesNotMatch(server.stdout, /did not finish in time/, 'the kept-alive connection does not hold the exit until the deadline');
  });

  it('serves with a young generation of 16 MB as the process it was started as, unless the operator sized the heap', async () => {
    const bounded = start(await freshDatabaseUrl('sqlite'), { NODE_OPTIONS: '' });
    await bounded.baseUrl();
    assert.deepEqual(commandLine(bounded.child.pid!).slice(1), ['--max-semi-space-size=16', BIN, 'serve']);
    assert.equal(listeningPid(bounded), bounded.child.pid);
    assert.deepEqual(await bounded.stop('SIGTERM'), { code: 0, signal: null });

    for (const NODE_OPTIONS of ['--max-semi-space-size=32', '--max_heap_size=512']) {
      const chosen = start(await freshDatabaseUrl('sqlite'), { NODE_OPTIONS });
      await chosen.baseUrl();
      assert.deepEqual(commandLine(chosen.child.pid!).slice(1), [BIN, 'serve'], NODE_OPTIONS);
      assert.equal(listeningPid(chosen), chosen.child.pid);
    }
  });

  it('exits 0 on SIGINT', async () => {
    const server = start(await freshDatabaseUrl('sqlite'));
    await server.baseUrl();
    assert.deepEqual(await server.stop('SIGINT'), { code: 0, signal: null });
  });
});

if (DIALECTS.includes('postgres')) {
  describe('loopdesk serve [postgres]', () => {
    it('several processes starting at once on one database migrate it once and create one Default workspace', async () => {
      const databaseUrl = await freshDatabaseUrl('postgres');
      const servers = Array.from({ length: 4 }, () => start(databaseUrl));
      const urls = await Promise.all(servers.map((server) => server.baseUrl()));
      // The key is printed after listening: give every process the chance to print one.
      await Promise.all(urls.map((url) => fetch(`${url}/healthz`)));
      const printed = servers.map((server) => server.stdout.match(FIRST_KEY)?.[1]).filter(Boolean) as string[];
      assert.equal(printed.length, 1, 'exactly one process printed a key');
      for (const url of urls) assert.equal((await getMe(url, printed[0])).status, 200);

      const database = createDatabase(databaseUrl);
      try {
        const workspaces = await database.db.selectFrom('workspaces').select('name').execute();
        assert.deepEqual(workspaces, [{ name: 'Default' }]);
        const keys = await database.db.selectFrom('api_keys').select('id').execute();
        assert.equal(keys.length, 1);
        assert.deepEqual(await database.migrate(), [], 'nothing left to migrate');
      } finally {
        await database.close();
      }
      const exits = await Promise.all(servers.map((server) => server.stop('SIGTERM')));
      assert.deepEqual(exits, servers.map(() => ({ code: 0, signal: null })));
    });
  });
}
