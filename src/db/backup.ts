// `loopdesk backup FILE`: a consistent copy of the live database in a new file, checked before
// it is reported, so that a backup that exists is one that can be restored.
import { existsSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DatabaseHandle } from './database.js';

export interface BackupReport {
  /** The copy's absolute path. */
  readonly file: string;
  readonly bytes: number;
  readonly integrity: 'ok';
  readonly duration_ms: number;
}

/** The database is backed up with its own tools (PostgreSQL); `procedure` says how. */
export class ExternalBackupError extends Error {
  readonly procedure: string;

  constructor(procedure: string) {
    super(procedure.split('\n')[0]);
    this.procedure = procedure;
    this.name = 'ExternalBackupError';
  }
}

/** A backup that was not made: the file exists, or the copy failed its check (and was deleted). */
export class BackupError extends Error {
  override readonly name = 'BackupError';
}

export async function backUp(database: DatabaseHandle, file: string): Promise<BackupReport> {
  const { backup } = database.dialect;
  if (!backup.online) throw new ExternalBackupError(backup.procedure);
  const path = resolve(file);
  if (existsSync(path)) throw new BackupError(`${path} exists; a backup never overwrites a file: name a new one`);
  const started = performance.now();
  const problems = await backup.copyTo(database.db, path);
  if (problems.length > 0) {
    rmSync(path, { force: true });
    throw new BackupError(`the copy failed its integrity check and was deleted: ${problems.slice(0, 3).join('; ')}`);
  }
  return { file: path, bytes: statSync(path).size, integrity: 'ok', duration_ms: Math.round(performance.now() - started) };
}
