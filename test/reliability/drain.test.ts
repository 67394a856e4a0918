// Graceful drain: SIGTERM while the real server is under write load. Requests in flight finish
// with their normal answer (one of them still uploading its body when the signal arrives), new
// connections are refused, the process exits 0, and every acknowledged write is stored.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { freshDatabaseUrl } from '../helpers/databases.js';
import { journalProblems } from '../helpers/journal-check.js';
import { openSocket, readResponses } from '../helpers/raw-http.js';
import { startServer } from '../helpers/server-process.js';
import { prepareLoad, startWriteLoad } from '../helpers/write-load.js';

const WORKERS = 8;
const ACKNOWLEDGED_BEFORE_SIGTERM = 150;

/**
 * How a new connection fares within 3 s of the signal (it takes a moment to be handled): refused
 * (ECONNREFUSED, or ECONNRESET when it was still in the kernel's queue of the listening socket as
 * it closed, never seen by the server), or what else happened.
 */
async function newConnectionFate(port: number): Promise<string> {
  for (let attempt = 0; attempt < 30; attempt++) {
    try {
      (await openSocket(port)).destroy();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      return code === 'ECONNREFUSED' || code === 'ECONNRESET' ? 'refused' : code;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return 'still accepted after 3 s';
}

describe('SIGTERM during load [sqlite]', () => {
  it('finishes in-flight requests, refuses new connections, exits 0 and keeps every acknowledged write', async (t) => {
    const databaseUrl = await freshDatabaseUrl('sqlite');
    const server = await startServer({ databaseUrl, firstStart: true });
    t.after(() => server.kill('SIGKILL'));
    const setup = await prepareLoad(server.baseUrl, server.bootstrapKey()!);
    const load = startWriteLoad(setup, WORKERS);
    await load.acknowledged(ACKNOWLEDGED_BEFORE_SIGTERM);

    // A create whose body is still arriving when the signal comes, and a read pipelined behind it.
    const body = JSON.stringify({ product_id: setup.productIds[0], title: 'Uploaded across the SIGTERM' });
    const slow = await openSocket(server.port);
    const slowResponses = readResponses(slow, 2, 15_000);
    slow.write(
      `POST /api/v1/issues HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${setup.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));

    const signalledAt = performance.now();
    server.kill('SIGTERM');
    assert.equal(await newConnectionFate(server.port), 'refused', 'a new connection after SIGTERM is refused');
    slow.write(`${body.slice(20)}GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${setup.key}\r\n\r\n`);
    const [answer, pipelined] = await slowResponses;
    assert.equal(answer?.status, 201, `the in-flight upload completes: ${answer?.body}`);
    assert.equal(pipelined?.status, 200, `the request pipelined behind it is served: ${pipelined?.body}`);
    assert.equal(pipelined.headers.connection, 'close', 'and told that the connection closes');

    const exit = await server.process.exited;
    const exitedAt = performance.now();
    await load.stop();
    assert.deepEqual(exit, { code: 0, signal: null }, 'the process exits 0');
    const { journal } = load;
    assert.deepEqual(journal.failed, [], 'no request got an error answer');

    const database = createDatabase(databaseUrl);
    try {
      assert.deepEqual(await journalProblems(database.db, journal), []);
      const uploaded = JSON.parse(answer!.body).data.id;
      assert.ok(await database.db.selectFrom('issues').select('id').where('id', '=', uploaded).executeTakeFirst(), 'the uploaded issue is stored');
    } finally {
      await database.close();
    }
    const inFlight = journal.acknowledged.filter((w) => w.sentAt < signalledAt && w.answeredAt > signalledAt).length + 2;
    t.diagnostic(
      `drain [sqlite]: ${inFlight} requests in flight at SIGTERM completed; ${journal.acknowledged.length} acknowledged writes kept; ` +
        `${journal.unknown.length} refused or cut before an answer; exit 0 after ${Math.round(exitedAt - signalledAt)} ms`,
    );
  });
});
