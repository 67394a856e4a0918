// Spawned servers and CLI commands run the compiled dist/, not src/: after an edit without a
// build they would silently test old code. The check runs once per process, at the first spawn.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The source versions (SHA-256 of the text) of the last build, from tsc's dist/.tsbuildinfo.
 * An incremental build does not rewrite the output of a file whose text did not change, so a
 * file that was only touched (a branch switched there and back) stays newer than its output.
 */
function builtVersions(): Map<string, string> {
  try {
    const info = JSON.parse(readFileSync(join(DIST, '.tsbuildinfo'), 'utf8'));
    return new Map(info.fileNames.map((name: string, i: number) => {
      const file = info.fileInfos[i];
      return [resolve(DIST, name), typeof file === 'string' ? file : file?.version];
    }));
  } catch {
    return new Map();
  }
}

/** Source files (relative to the root) whose compiled counterpart is missing or older than they are. */
function staleSources(): string[] {
  let versions: Map<string, string> | undefined;
  return sourceFiles(SRC).filter((source) => {
    const compiled = join(DIST, relative(SRC, source)).replace(/\.ts$/, '.js');
    if (!existsSync(compiled)) return true;
    if (statSync(source).mtimeMs <= statSync(compiled).mtimeMs) return false;
    versions ??= builtVersions();
    return versions.get(source) !== createHash('sha256').update(readFileSync(source, 'utf8')).digest('hex');
  }).map((source) => relative(ROOT, source));
}

let stale: string[] | undefined;

/** Throws, naming the files, when dist/ is missing a source file's build or older than it. */
export function assertDistIsCurrent(): void {
  stale ??= staleSources();
  if (stale.length === 0) return;
  const shown = stale.length > 5 ? [...stale.slice(0, 5), `and ${stale.length - 5} more`] : stale;
  throw new Error(`dist/ is older than src/ (${shown.join(', ')} not built): run npm run build`);
}
