// `loopdesk copy` at scale: seeds a SQLite database with N issues (100k by default; conversations,
// messages and releases in proportion, as the load bench seeds), then times `loopdesk copy --to`
// into a fresh PostgreSQL database and back into a fresh SQLite file, each in its own process,
// reporting wall time and peak RSS (the process's VmHWM, read just before it exits).
//   node --import ./test/helpers/typescript-hooks.mjs bench/copy.ts [issues]
import { spawn } from 'node:child_process';
import { createDatabase } from '../src/db/database.js';
import { BIN } from '../test/helpers/processes.js';
import { databaseFactory } from './databases.js';
import { seedMain } from './seed.js';

const issues = Number(process.argv[2] ?? 100_000);

/** Runs `loopdesk copy --to target` on `source`; resolves with its wall time and peak RSS. */
function timedCopy(source: string, target: string): Promise<{ seconds: number; peakRssMb: number; rows: number }> {
  const started = performance.now();
  // Peak RSS from the kernel's high-water mark, printed by the child as it exits.
  const peak = "import{readFileSync}from'node:fs';process.on('exit',()=>process.stderr.write('VmHWM '+readFileSync('/proc/self/status','utf8').match(/VmHWM:\\s+(\\d+)/)[1]+'\\n'))";
  const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(peak)}`, BIN, 'copy', '--to', target, '--json'], {
    env: { ...process.env, DATABASE_URL: source },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => child.once('close', (code) => {
    if (code !== 0) return reject(new Error(`copy exited ${code}: ${stderr}${stdout.slice(0, 2000)}`));
    const report = JSON.parse(stdout);
    if (!report.matches) return reject(new Error('counts or checksums differ'));
    const rows = report.tables.reduce((sum: number, table: any) => sum + table.rows.target, 0);
    resolve({ seconds: (performance.now() - started) / 1000, peakRssMb: Math.round(Number(/VmHWM (\d+)/.exec(stderr)![1]) / 1024), rows });
  }));
}

const sqlite = await databaseFactory('sqlite');
const postgres = await databaseFactory('postgres');
try {
  const source = await sqlite.fresh('source');
  const database = createDatabase(source);
  await database.migrate();
  const { summary } = await seedMain(database, issues);
  await database.close();
  process.stdout.write(`seeded ${summary.issues} issues, ${summary.conversations} conversations, ${summary.messages} messages in ${summary.seconds.toFixed(1)} s\n`);
  const onPostgres = await postgres.fresh('copy');
  for (const [label, from, to] of [['SQLite → PostgreSQL', source, onPostgres], ['PostgreSQL → SQLite', onPostgres, await sqlite.fresh('back')]]) {
    const { seconds, peakRssMb, rows } = await timedCopy(from, to);
    process.stdout.write(`${label}: ${rows} rows in ${seconds.toFixed(1)} s, peak RSS ${peakRssMb} MB\n`);
  }
} finally {
  sqlite.dispose();
  postgres.dispose();
}
