// Builds the parts of Loopdesk whose sources changed since their last build: `npm start` runs it
// first (its prestart), so a start after an edit runs what was edited, and a start after none
// builds nothing. `--all` builds every part (`npm run build`, which `npm install` runs).
//
// A part is out of date when the SHA-256 of its inputs (each file's path and text) differs from
// the one recorded when it was last built, or when its output is missing. Text, not times: a
// checkout or a branch switched there and back touches files without changing them. The inputs
// of a front end include what it imports from outside its folder (the widget uses src/lib).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Where each part's input hash is recorded once it is built, under the root. */
const STAMPS = 'dist/.build-inputs.json';
/** What every part depends on: the dependencies' versions, and this script's own rules. */
const COMMON = ['package.json', 'package-lock.json', 'scripts/build-changed.mjs'];

export const PARTS = [
  { name: 'server', script: 'build:server', inputs: ['src', 'tsconfig.json', 'tsconfig.build.json'], output: 'dist/cli.js' },
  { name: 'cli', script: 'build:cli', inputs: ['cli/src', 'cli/tsconfig.json', 'cli/package.json'], output: 'cli/dist/main.js' },
  { name: 'app', script: 'build:app', inputs: ['web/app'], output: 'dist/web/app/index.html', followImports: true },
  { name: 'widget', script: 'build:widget', inputs: ['web/widget'], output: 'dist/web/widget/.vite/manifest.json', followImports: true },
];

const SOURCE = /\.(?:[cm]?[jt]sx?|css|html|json|svg)$/;
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function filesUnder(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    entry.name === 'node_modules' ? [] : entry.isDirectory() ? filesUnder(join(path, entry.name)) : SOURCE.test(entry.name) ? [join(path, entry.name)] : []);
}

/** The file an import names: `./module.js` is `./module.ts` (or .tsx) in the sources. */
function resolveImport(from, specifier) {
  const path = resolve(dirname(from), specifier);
  return [path, path.replace(/\.js$/, '.ts'), path.replace(/\.js$/, '.tsx')].find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** The part's input files under `root`, with what its sources import from outside them (transitively). */
function inputsOf(root, part) {
  const files = new Set([...COMMON, ...part.inputs].map((path) => join(root, path)).filter(existsSync).flatMap(filesUnder));
  if (part.followImports) {
    for (const file of files) {
      if (!/\.[cm]?[jt]sx?$/.test(file)) continue;
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
        const imported = resolveImport(file, specifier);
        if (imported) files.add(imported);
      }
    }
  }
  return [...files].map((file) => relative(root, file)).sort();
}

/** The SHA-256 of the part's inputs: each file's path and bytes. */
export function inputHash(root, part) {
  const hash = createHash('sha256');
  for (const file of inputsOf(root, part)) hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0');
  return hash.digest('hex');
}

function readStamps(root) {
  try {
    return JSON.parse(readFileSync(join(root, STAMPS), 'utf8'));
  } catch {
    return {};
  }
}

/** Records that the part was built from the inputs it has now. */
export function recordBuilt(root, part, hash = inputHash(root, part)) {
  mkdirSync(dirname(join(root, STAMPS)), { recursive: true });
  writeFileSync(join(root, STAMPS), `${JSON.stringify({ ...readStamps(root), [part.name]: hash }, null, 2)}\n`);
}

/** Whether the part must be built: its output missing, or its inputs not those of its last build. */
export function isStale(root, part, hash = inputHash(root, part)) {
  return readStamps(root)[part.name] !== hash || !existsSync(join(root, part.output));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const all = process.argv.includes('--all');
  for (const part of PARTS) {
    const hash = inputHash(ROOT, part);
    if (!all && !isStale(ROOT, part, hash)) continue;
    const run = spawnSync('npm', ['run', part.script, '--silent'], { cwd: ROOT, stdio: 'inherit' });
    if (run.status !== 0) process.exit(run.status ?? 1);
    recordBuilt(ROOT, part, hash);
  }
}
