// `loopdesk backup FILE`: a consistent copy of the live database in a new file, checked before
// it is reported, so that a backup that exists is one that can be restored.
import { rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createOwnerOnlyFile } from '../lib/owner-only.js';
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
  const started = performance.now();
  // Created first, empty (the copy writes into an empty file), readable by its owner only: a backup
  // holds every secret of the database. Exclusively, so that no file is ever overwritten.
  try {
    createOwnerOnlyFile(path, { exclusive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new BackupError(`${path} exists; a backup never overwrites a file: name a new one`);
    throw error;
  }
  const problems = await backup.copyTo(database.db, path).catch((error: unknown) => {
    rmSync(path, { force: true });
    throw error;
  });
  if (problems.length > 0) {
    rmSync(path, { force: true });
    throw new BackupError(`the copy failed its integrity check and was deleted: ${problems.slice(0, 3).join('; ')}`);
  }
  return { file: path, bytes: statSync(path).size, integrity: 'ok', duration_ms: Math.round(performance.now() - started) };
}
