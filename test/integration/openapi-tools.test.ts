// The served OpenAPI document under the tools a newcomer reaches for: Redocly CLI's linter,
// openapi-typescript and openapi-fetch. Each runs against a real server (the compiled dist/, first
// start on an empty database, its banner key), never a checked-in file. Schemathesis, the fourth,
// has files of its own (schemathesis-*.test.ts), so that its long runs go side by side.
// How to run each by hand, and why Schemathesis is configured as it is: docs/openapi-tools.md.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DIALECTS } from '../helpers/databases.js';
import {
  compileClient, generateTypes, namedSchemaTypes, redoclyLint, runClient, servedDocumentFixture,
} from '../helpers/openapi-tools.js';

/** The named types a client needs, one per resource and envelope (the list is the requirement). */
const REQUIRED_SCHEMA_NAMES = [
  'Issue', 'Product', 'IssueListItem', 'Conversation', 'ConversationSummary', 'Message', 'Release', 'Member', 'Me',
  'Pagination', 'Error',
];

for (const dialect of DIALECTS) {
  describe(`the served OpenAPI document under third-party tools [${dialect}]`, () => {
    const served = servedDocumentFixture(dialect);

    it('passes Redocly lint with the recommended ruleset: 0 errors, 0 warnings', async (t) => {
      const report = await redoclyLint(served().documentPath);
      t.diagnostic(`Redocly lint (recommended): ${report.errors} errors, ${report.warnings} warnings`);
      const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.pointer}: ${p.message}`);
      for (const problem of problems) t.diagnostic(problem);
      assert.deepEqual({ errors: report.errors, warnings: report.warnings }, { errors: 0, warnings: 0 }, problems.join('\n'));
    });

    it('gives openapi-typescript a named type for every resource and envelope', async (t) => {
      const { documentPath, dir } = served();
      const names = namedSchemaTypes(await generateTypes(documentPath, dir));
      t.diagnostic(`openapi-typescript: components["schemas"] has ${names.length ? names.join(', ') : 'no named types'}`);
      assert.deepEqual(REQUIRED_SCHEMA_NAMES.filter((name) => !names.includes(name)), [], 'missing from components["schemas"]');
    });

    it('compiles an openapi-fetch client under tsc --strict that lists issues without offset, and it gets 200s', async () => {
      const { documentPath, dir, server, key } = served();
      const compiled = await compileClient(await generateTypes(documentPath, dir));
      assert.equal(compiled.code, 0, `tsc --strict rejects test/fixtures/openapi-fetch-client.ts:\n${compiled.stdout}${compiled.stderr}`);
      const statuses = await runClient(server.baseUrl, key);
      assert.deepEqual(
        { me: statuses.me, createProduct: statuses.createProduct, listIssues: statuses.listIssues },
        { me: 200, createProduct: 201, listIssues: 200 },
      );
    });
  });
}
