// `npm test`: starts a throwaway PostgreSQL cluster (unless TEST_DATABASE_URL is set), then runs
// every test file with node:test on SQLite and PostgreSQL. Without PostgreSQL binaries the
// PostgreSQL half is skipped loudly; in CI (CI=true) that is a failure.
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

const root = new URL('.', import.meta.url).pathname;
const filter = process.argv.slice(2);
const files = testFiles(root)
  .map((file) => relative(process.cwd(), file))
  .filter((file) => filter.length === 0 || filter.some((part) => file.includes(part)))
  .sort();

let cluster: PostgresCluster | null = null;
const env = { ...process.env };
if (!env.TEST_DATABASE_URL) {
  const bin = findPostgresBin();
  if (bin) {
    ensurePostgresUser();
    cluster = await startPostgresCluster(bin);
    env.TEST_DATABASE_URL = cluster.url;
  } else if (env.CI === 'true') {
    process.stderr.write('\nFAIL: PostgreSQL binaries not found and CI=true; install postgresql or set TEST_DATABASE_URL\n');
    process.exit(1);
  } else {
    process.stderr.write('\n*** WARNING: PostgreSQL binaries not found: the PostgreSQL half of the suite is SKIPPED ***\n\n');
  }
}

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${env.TEST_CONCURRENCY ?? 2}`, ...files],
  { stdio: 'inherit', env },
);
cluster?.stop();
process.exit(result.status ?? 1);
