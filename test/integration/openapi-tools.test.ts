// The served OpenAPI document under the tools a newcomer reaches for: Redocly CLI's linter,
// openapi-typescript and openapi-fetch, and Schemathesis. Each runs against a real server (the
// compiled dist/, first start on an empty database, its banner key), never a checked-in file.
// How to run each by hand, and why Schemathesis is configured as it is: docs/openapi-tools.md.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import {
  compileClient, generateTypes, namedSchemaTypes, redoclyLint, runClient, saveServedDocument, seedReferences,
} from '../helpers/openapi-tools.js';
import {
  findSchemathesis, runSchemathesis, SCHEMATHESIS_MAX_EXAMPLES, SCHEMATHESIS_PHASES, SCHEMATHESIS_SEED,
} from '../helpers/schemathesis.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';

/** The named types a client needs, one per resource and envelope (the list is the requirement). */
const REQUIRED_SCHEMA_NAMES = [
  'Issue', 'Product', 'IssueListItem', 'Conversation', 'ConversationSummary', 'Message', 'Release', 'Member', 'Me',
  'Pagination', 'Error',
];

/** The server's log lines at level error or above (a 500's cause, by its request id), for a failure's message. */
const serverErrors = (server: RunningServer) => {
  const lines = server.process.stdout.split('\n').filter((line) => Number(/"level":(\d+)/.exec(line)?.[1]) >= 50);
  return lines.length ? `The server logged:\n${lines.join('\n').slice(-20_000)}` : 'The server logged no error.';
};

const diagnoseLines = (t: TestContext, text: string) => {
  for (const line of text.split('\n')) if (line.trim()) t.diagnostic(line);
};

/**
 * Fuzzing runs against one database, PostgreSQL when the run has it. With the fixed seed it sends
 * the same requests whatever the database, so a second run repeats every input; the phases that
 * aim at the database's edges (the document's examples; coverage: each parameter's boundaries, each
 * missing or of a wrong type, each undeclared method) and the stateful sequences run on both, with
 * every operation and every check (docs/testing.md).
 */
const FUZZED_DIALECT = DIALECTS.at(-1);

for (const dialect of DIALECTS) {
  const phases = SCHEMATHESIS_PHASES.filter((phase) => phase !== 'fuzzing' || dialect === FUZZED_DIALECT);
  describe(`the served OpenAPI document under third-party tools [${dialect}]`, () => {
    let server: RunningServer;
    let key: string;
    let dir: string;
    let documentPath: string;

    before(async () => {
      // Webhook URLs are not resolved here: Schemathesis invents host names, and a name this
      // machine's resolver never answers for holds each create for the guard's 3 s (SSRF is
      // tested in webhook-ssrf.test.ts). Event streams end after 200 ms, so that the tools read a
      // GET /events/stream answer to its end (it is endless otherwise; event-stream.test.ts tests it).
      server = await startServer({
        databaseUrl: await freshDatabaseUrl(dialect), firstStart: true,
        env: { LOOPDESK_WEBHOOKS_ALLOW_PRIVATE: '1', LOOPDESK_SSE_MAX_MS: '200' },
      });
      key = server.bootstrapKey()!;
      dir = mkdtempSync(join(tmpdir(), 'loopdesk-openapi-tools-'));
      documentPath = await saveServedDocument(server.baseUrl, key, dir);
    });
    after(async () => {
      await server?.process.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('passes Redocly lint with the recommended ruleset: 0 errors, 0 warnings', async (t) => {
      const report = await redoclyLint(documentPath);
      t.diagnostic(`Redocly lint (recommended): ${report.errors} errors, ${report.warnings} warnings`);
      const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.pointer}: ${p.message}`);
      for (const problem of problems) t.diagnostic(problem);
      assert.deepEqual({ errors: report.errors, warnings: report.warnings }, { errors: 0, warnings: 0 }, problems.join('\n'));
    });

    it('gives openapi-typescript a named type for every resource and envelope', async (t) => {
      const names = namedSchemaTypes(await generateTypes(documentPath, dir));
      t.diagnostic(`openapi-typescript: components["schemas"] has ${names.length ? names.join(', ') : 'no named types'}`);
      assert.deepEqual(REQUIRED_SCHEMA_NAMES.filter((name) => !names.includes(name)), [], 'missing from components["schemas"]');
    });

    it('compiles an openapi-fetch client under tsc --strict that lists issues without offset, and it gets 200s', async () => {
      const compiled = await compileClient(await generateTypes(documentPath, dir));
      assert.equal(compiled.code, 0, `tsc --strict rejects test/fixtures/openapi-fetch-client.ts:\n${compiled.stdout}${compiled.stderr}`);
      const statuses = await runClient(server.baseUrl, key);
      assert.deepEqual(
        { me: statuses.me, createProduct: statuses.createProduct, listIssues: statuses.listIssues },
        { me: 200, createProduct: 201, listIssues: 200 },
      );
    });

    it(`passes Schemathesis with every check (seed ${SCHEMATHESIS_SEED}, ${SCHEMATHESIS_MAX_EXAMPLES} examples; ${phases.join(', ')})`, async (t) => {
      const found = await findSchemathesis();
      if ('problem' in found) {
        assert.notEqual(process.env.CI, 'true', found.problem);
        process.stderr.write(`\n*** WARNING: ${found.problem}. The Schemathesis check is SKIPPED ***\n\n`);
        t.skip(found.problem);
        return;
      }
      const run = await runSchemathesis({
        executable: found.path,
        documentPath,
        origin: server.baseUrl,
        key,
        references: await seedReferences(server.baseUrl, key),
        workDir: dir,
        phases,
      });
      diagnoseLines(t, run.summary);
      assert.ok(run.passed, `Schemathesis reported failures:\n${run.failures.slice(0, 60_000)}\n${run.summary}\n${serverErrors(server)}`);
    });
  });
}
