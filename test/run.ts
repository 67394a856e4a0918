// `npm test`: starts a throwaway PostgreSQL cluster (unless TEST_DATABASE_URL is set), then runs
// every test file with node:test on SQLite and PostgreSQL. Without PostgreSQL binaries the
// PostgreSQL half is skipped loudly, before the run and again after its summary (which counts
// none of it as skipped); in CI (CI set, other than false or 0) that is a failure.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { createDatabase } from '../src/db/database.js';
import { prepareTemplates } from './helpers/databases.js';
import { ensurePostgresUser, findPostgresBin, startPostgresCluster, type PostgresCluster } from './helpers/postgres.js';
import slowestFiles from './helpers/slowest-files-reporter.js';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const POSTGRES_SKIPPED = [
  '*'.repeat(88),
  '*** WARNING: PostgreSQL binaries not found (/usr/lib/postgresql/<version>/bin/initdb).',
  '*** Only SQLite was tested: the PostgreSQL half of the suite did NOT run, and the',
  '*** "skipped" count of the summary does not include it.',
  '*** Install postgresql or set TEST_DATABASE_URL; in CI this is a failure.',
  '*'.repeat(88),
].join('\n');

function warnPostgresSkipped(): void {
  const [loud, plain] = process.stderr.isTTY ? ['\x1b[1;31m', '\x1b[0m'] : ['', ''];
  process.stderr.write(`\n${loud}${POSTGRES_SKIPPED}${plain}\n\n`);
}

const root = new URL('.', import.meta.url).pathname;
/**
 * The files that take longest (the slowest-files report), longest first. node:test's run() starts
 * files in the order of its `files`, as many at a time as its concurrency (`node --test` would sort
 * them by path): these go first, so that the run does not end with one of them left running alone
 * on an otherwise idle machine. The bench smoke, which measures, starts beside one Schemathesis
 * run, not two (beside two, a floor once answered nothing in its second).
 */
const LONGEST_FIRST = [
  'integration/schemathesis-fuzzing.test.ts', 'integration/bench-smoke.test.ts', 'integration/cli.test.ts',
  'integration/schemathesis-postgres.test.ts', 'integration/schemathesis-sqlite.test.ts', 'browser/app-screens.test.ts',
  'integration/dedup-real-model.test.ts', 'browser/app-inbox-team.test.ts', 'browser/app-layout.test.ts', 'reliability/fuzz.test.ts', 'browser/app-triage.test.ts',
  'reliability/query-plans.test.ts', 'browser/widget.test.ts',
];
const startRank = (file: string) => {
  const rank = LONGEST_FIRST.findIndex((slow) => file.endsWith(slow));
  return rank < 0 ? LONGEST_FIRST.length : rank;
};
const filter = process.argv.slice(2);
const files = testFiles(root)
  .map((file) => relative(process.cwd(), file))
  .filter((file) => filter.length === 0 || filter.some((part) => file.includes(part)))
  .sort()
  .sort((a, b) => startRank(a) - startRank(b));

let cluster: PostgresCluster | null = null;
let postgresSkipped = false;
// The test files' processes inherit this environment.
const env = process.env;
const inCi = Boolean(env.CI) && env.CI !== 'false' && env.CI !== '0';
if (!env.TEST_DATABASE_URL) {
  const bin = findPostgresBin();
  if (bin) {
    ensurePostgresUser();
    cluster = await startPostgresCluster(bin);
    env.TEST_DATABASE_URL = cluster.url;
  } else if (inCi) {
    process.stderr.write(`\nFAIL: PostgreSQL binaries not found and CI=${env.CI}; install postgresql or set TEST_DATABASE_URL\n`);
    process.exit(1);
  } else {
    postgresSkipped = true;
    warnPostgresSkipped();
  }
}

/**
 * Every file in its own process, with this one's flags (the `--import` that runs TypeScript),
 * reported by `spec` and then by the slowest-files report; true when every test passed.
 */
async function runFiles(): Promise<boolean> {
  const toSpec = new PassThrough({ objectMode: true });
  const toSlowest = new PassThrough({ objectMode: true });
  const printed = pipeline(toSpec, new spec(), process.stdout, { end: false });
  const slowest = (async () => {
    let report = '';
    for await (const line of slowestFiles(toSlowest)) report += line;
    return report;
  })();
  let success = false;
  for await (const event of run({ files, concurrency: Number(env.TEST_CONCURRENCY ?? 3) })) {
    if (event.type === 'test:summary' && event.data.file === undefined) success = event.data.success;
    toSpec.write(event);
    toSlowest.write(event);
  }
  toSpec.end();
  toSlowest.end();
  await printed;
  process.stdout.write(await slowest);
  return success;
}

// Test contexts start from a copy of a migrated database (test/helpers/databases.ts).
const removeTemplates = await prepareTemplates(async (url) => {
  const database = createDatabase(url);
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
});
const passed = await runFiles();
await removeTemplates();
cluster?.stop();
if (postgresSkipped) warnPostgresSkipped();
process.exit(passed ? 0 : 1);
