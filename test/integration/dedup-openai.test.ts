// The `openai` matcher against a local server speaking the OpenAI embeddings and chat
// completions wire format, including its failures.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { embeddingRepository } from '../../src/db/repositories/embedding.repository.js';
import { createDuplicateDetector } from '../../src/dedup/create-detector.js';
import type { Candidate, DuplicateDetector } from '../../src/dedup/detector.js';
import { DIALECTS } from '../helpers/databases.js';
import { createDedupFixture, type DedupFixture } from '../helpers/dedup-fixtures.js';

const API_KEY = 'sk-test-secret-key';
// Deliberately not unit length: the matcher normalizes whatever the server returns.
const VECTORS: Record<string, number[]> = {
  'login fails': [3, 0, 0],
  'Login fails!': [3, 0.3, 0],
  'refund missing': [0, 5, 0],
  'login refund': [1, 1, 0],
};

interface Received {
  path: string;
  authorization: string | undefined;
  body: any;
}

type Behaviour = (received: Received, response: ServerResponse) => void;

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

const answerEmbeddings: Behaviour = ({ body }, response) =>
  json(response, 200, { object: 'list', data: (body.input as string[]).map((text, index) => ({ object: 'embedding', index, embedding: VECTORS[text] ?? [0, 0, 1] })) });

const judgeSays = (content: string): Behaviour => (received, response) =>
  received.path.endsWith('/chat/completions')
    ? json(response, 200, { choices: [{ index: 0, message: { role: 'assistant', content } }] })
    : answerEmbeddings(received, response);

let server: Server;
let baseUrl: string;
let received: Received[] = [];
// Each request takes the next behaviour; the last one repeats.
let behaviours: Behaviour[] = [answerEmbeddings];

before(async () => {
  server = createServer(async (request: IncomingMessage, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const entry: Received = { path: request.url ?? '', authorization: request.headers.authorization, body: JSON.parse(raw) };
    received.push(entry);
    (behaviours.length > 1 ? behaviours.shift()! : behaviours[0])(entry, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
}));
beforeEach(() => {
  received = [];
  behaviours = [answerEmbeddings];
});

const logs: string[] = [];
const logger = { info: (d: object, m: string) => logs.push(m + JSON.stringify(d)), warn: (d: object, m: string) => logs.push(m + JSON.stringify(d)) };

for (const dialect of DIALECTS) {
  describe(`openai matcher (${dialect})`, () => {
    let fixture: DedupFixture;
    let login: Candidate;
    let refund: Candidate;

    const detectorWith = (extra: Record<string, string> = {}) =>
      createDuplicateDetector(
        loadConfig({
          LOOPDESK_DEDUP_PROVIDER: 'openai', LOOPDESK_OPENAI_BASE_URL: baseUrl, LOOPDESK_OPENAI_API_KEY: API_KEY,
          LOOPDESK_OPENAI_EMBEDDING_MODEL: 'test-embed', LOOPDESK_OPENAI_TIMEOUT_MS: '300', ...extra,
        }).dedup,
        { store: embeddingRepository(fixture.database.db), logger },
      );
    const decide = async (detector: DuplicateDetector, title: string, candidates = [login, refund]) =>
      detector.decide(await detector.prepare({ title, description: null }), { workspaceId: fixture.workspaceId, productId: fixture.productId, candidates });

    before(async () => {
      fixture = await createDedupFixture(dialect);
      login = await fixture.createIssue('login fails');
      refund = await fixture.createIssue('refund missing');
    });
    after(() => fixture.close());

    it('embeds with the configured model and key, stores the vectors and matches by cosine', async () => {
      const detector = await detectorWith();
      assert.equal(detector.name, 'openai:test-embed');
      const decision = await decide(detector, 'Login fails!');
      assert.equal(decision.issueId, login.id);
      assert.ok(decision.score! > 0.99 && decision.score! < 1);
      assert.ok(received.every((r) => r.authorization === `Bearer ${API_KEY}` && r.body.model === 'test-embed'));
      const stored = await embeddingRepository(fixture.database.db).forIssues(fixture.workspaceId, [login.id, refund.id], 'test-embed');
      assert.equal(stored.length, 2);
      assert.ok(stored.every((s) => s.vector.length === 3 && Math.abs(Math.hypot(...s.vector) - 1) < 1e-6));
      assert.equal((await decide(detector, 'login refund')).issueId, null);
    });

    it('retries once after a 500', async () => {
      const detector = await detectorWith();
      behaviours = [(_, response) => json(response, 500, { error: 'busy' }), answerEmbeddings];
      await detector.prepare({ title: 'login fails', description: null });
      assert.equal(received.length, 2);
    });

    it('fails detection after two 500s, without the key in the error or the logs', async () => {
      const detector = await detectorWith();
      behaviours = [(_, response) => json(response, 500, { error: `bad key ${API_KEY}` })];
      const error = await detector.prepare({ title: 'login fails', description: null }).catch((e: Error) => e);
      assert.equal((error as Error).name, 'DetectionError');
      assert.match((error as Error).message, /HTTP 500/);
      assert.equal(received.length, 2);
      assert.ok(!JSON.stringify({ message: (error as Error).message, logs }).includes(API_KEY));
    });

    it('fails detection when the server does not answer in time, after one retry', async () => {
      const detector = await detectorWith();
      behaviours = [(entry, response) => setTimeout(() => response.destroyed || answerEmbeddings(entry, response), 1000)];
      await assert.rejects(detector.prepare({ title: 'login fails', description: null }), { name: 'DetectionError', message: /did not answer within 300 ms/ });
      assert.equal(received.length, 2);
    });

    it('fails detection when the server cannot be reached', async () => {
      const detector = await createDuplicateDetector(
        loadConfig({ LOOPDESK_DEDUP_PROVIDER: 'openai', LOOPDESK_OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', LOOPDESK_OPENAI_TIMEOUT_MS: '300' }).dedup,
        { store: embeddingRepository(fixture.database.db), logger },
      );
      await assert.rejects(detector.prepare({ title: 'login fails', description: null }), { name: 'DetectionError', message: /could not be reached/ });
    });

    describe('with an LLM judge', () => {
      const judged = () => detectorWith({ LOOPDESK_OPENAI_CHAT_MODEL: 'test-chat' });

      it('returns the candidate the judge names, from the best candidates only', async () => {
        const detector = await judged();
        assert.equal(detector.name, 'openai:test-embed+judge:test-chat');
        behaviours = [judgeSays('{"duplicate_of": 1}')];
        const decision = await decide(detector, 'Login fails!');
        assert.equal(decision.issueId, login.id);
        const chat = received.find((r) => r.path.endsWith('/chat/completions'))!;
        assert.equal(chat.body.model, 'test-chat');
        assert.equal(chat.authorization, `Bearer ${API_KEY}`);
        assert.match(chat.body.messages[1].content, /1\. login fails/);
        assert.doesNotMatch(chat.body.messages[1].content, /refund missing/, 'a candidate far below the threshold is not sent');
      });

      it('creates a new issue when the judge says none, whatever the cosine', async () => {
        const detector = await judged();
        behaviours = [judgeSays('{"duplicate_of": null}')];
        const decision = await decide(detector, 'Login fails!');
        assert.equal(decision.issueId, null);
        assert.ok(decision.score! > 0.99);
      });

      for (const [what, content] of [
        ['text that is not JSON', 'Yes, issue 1.'],
        ['a number that is not listed', '{"duplicate_of": 7}'],
        ['an id instead of a number', `{"duplicate_of": "1"}`],
        ['unexpected keys', '{"duplicate_of": 1, "confidence": 0.9}'],
        ['no verdict', '{}'],
      ]) {
        it(`fails detection when the judge answers ${what}`, async () => {
          const detector = await judged();
          behaviours = [judgeSays(content)];
          await assert.rejects(decide(detector, 'Login fails!'), { name: 'DetectionError' });
        });
      }
    });
  });
}
