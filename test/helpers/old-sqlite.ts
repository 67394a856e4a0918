// Older SQLite libraries than the server's, to open its files with as an operator's tools would:
// SQLite 3.36.0, built by .ci/run from the SQLite source in the pinned sdist of
// test/fixtures/old-sqlite-requirements.txt (no binary build of 3.36 or 3.37 on PyPI fits a current
// Python) into a folder outside the tree, found at LOOPDESK_OLD_SQLITE_LIB; and the machine's own
// (Debian 12's 3.40.1). Both are read through Python's sqlite3 module and
// test/fixtures/read-sqlite.py, the older one loaded in place of the machine's.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const LIBRARY_DIR = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'loopdesk', 'old-sqlite', 'lib');
/** Debian's Python, whose sqlite3 module loads the machine's libsqlite3.so.0 (or the one LD_LIBRARY_PATH names). */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

export const OLD_SQLITE_VERSION = '3.36.0';

export interface SqliteReading {
  version: string;
  schema_error?: string;
  objects: Record<string, { rows: number } | { error: string }>;
  search_texts: [number, string, string][] | null;
}

export type SqliteReader = (file: string) => Promise<SqliteReading>;

function readerWith(env: NodeJS.ProcessEnv, version?: string): SqliteReader {
  return async (file) => {
    const { stdout } = await promisify(execFile)(PYTHON, [join(FIXTURES, 'read-sqlite.py'), file], { env, maxBuffer: 64 * 1024 * 1024 });
    const reading = JSON.parse(stdout) as SqliteReading;
    if (version && reading.version !== version) throw new Error(`Python loaded SQLite ${reading.version}, not ${version} from ${env.LD_LIBRARY_PATH}`);
    return reading;
  };
}

/** The machine's own SQLite, as its `sqlite3` and Python read a file. */
export const systemSqlite: SqliteReader = readerWith(process.env);

/** SQLite 3.36.0, or why it is missing (with how to install it). */
export function findOldSqlite(): { read: SqliteReader } | { problem: string } {
  const dir = process.env.LOOPDESK_OLD_SQLITE_LIB || LIBRARY_DIR;
  if (existsSync(join(dir, 'libsqlite3.so.0'))) return { read: readerWith({ ...process.env, LD_LIBRARY_PATH: dir }, OLD_SQLITE_VERSION) };
  return { problem: `SQLite ${OLD_SQLITE_VERSION} not found at ${dir}/libsqlite3.so.0; install it with \`bash .ci/run\` (LOOPDESK_OLD_SQLITE_LIB may point at another folder holding libsqlite3.so.0 of SQLite ${OLD_SQLITE_VERSION})` };
}
