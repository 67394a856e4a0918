// What Loopdesk writes to disk holds secrets (the hashes of keys and passwords, the identity and
// webhook secrets) and customers' conversations and files: the SQLite database (SQLite gives its
// -wal and -shm files the database file's mode), its backups and copies, the attachments folder.
// Loopdesk creates them readable by its own user only, whatever the process's umask leaves.
import { closeSync, fchmodSync, openSync } from 'node:fs';

export const OWNER_ONLY_FILE = 0o600;
export const OWNER_ONLY_FOLDER = 0o700;

/**
 * Creates `path` as an empty file readable and writable by its owner only. A file that exists is
 * left as it is: EEXIST is thrown when `exclusive` (a backup), and false is returned otherwise.
 */
export function createOwnerOnlyFile(path: string, { exclusive }: { exclusive: boolean }): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', OWNER_ONLY_FILE);
  } catch (error) {
    if (!exclusive && (error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fchmodSync(fd, OWNER_ONLY_FILE);
  } finally {
    closeSync(fd);
  }
  return true;
}
