// `npm test`: starts a throwaway PostgreSQL cluster (unless TEST_DATABASE_URL is set), then runs
// every test file with node:test on SQLite and PostgreSQL. Without PostgreSQL binaries the
// PostgreSQL half is skipped loudly, before the run and again after its summary (which counts
// none of it as skipped); in CI (CI set, other than false or 0) that is a failure.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensurePostgresUser, findPostgresBin, startPostgresCluster, type PostgresCluster } from './helpers/postgres.js';

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
/** Prints the run's ten slowest files after the summary. */
const SLOWEST_FILES_REPORTER = new URL('helpers/slowest-files-reporter.ts', import.meta.url).href;
/**
 * The files that take longest (the slowest-files report), longest first. node --test starts files
 * in the order given, as many at a time as --test-concurrency: these go first, so that the run does
 * not end with one of them left running alone on an otherwise idle machine.
 */
const LONGEST_FIRST = [
  'integration/openapi-tools.test.ts', 'integration/bench-smoke.test.ts', 'integration/cli.test.ts',
  'integration/dedup-real-model.test.ts', 'browser/app-screens.test.ts', 'browser/app-inbox-team.test.ts',
  'reliability/fuzz.test.ts', 'browser/app-triage.test.ts', 'browser/widget.test.ts', 'reliability/webhook-processes.test.ts',
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
const env = { ...process.env };
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

const result = spawnSync(
  process.execPath,
  [
    '--import', 'tsx', '--test', `--test-concurrency=${env.TEST_CONCURRENCY ?? 2}`,
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    `--test-reporter=${SLOWEST_FILES_REPORTER}`, '--test-reporter-destination=stdout',
    ...files,
  ],
  { stdio: 'inherit', env },
);
cluster?.stop();
if (postgresSkipped) warnPostgresSkipped();
process.exit(result.status ?? 1);
