// Builds the widget into dist/web/widget/ (run by `npm run build:widget`, itself run by `build` at
// install): the frame app (an ES module with its hashed chunks, CSS and proof-of-work worker, and
// the manifest the server reads to name them), then widget.js (one classic script for host pages).
// Prints both sizes gzipped, and fails when widget.js is over its 30 KB budget (docs/widget.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('../../dist/web/widget/', import.meta.url));
const LOADER_BUDGET = 30 * 1024;
const common = {
  configFile: false,
  root,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
};

await build({
  ...common,
  base: './',
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    manifest: true,
    modulePreload: false,
    rolldownOptions: { input: { frame: join(root, 'src/frame/main.tsx') } },
  },
  worker: { format: 'es' },
});
await build({
  ...common,
  build: {
    outDir,
    emptyOutDir: false,
    target: 'es2020',
    lib: { entry: join(root, 'src/loader/widget.ts'), formats: ['iife'], name: 'LoopdeskWidget', fileName: () => 'widget.js' },
  },
});

const gzipped = (file) => gzipSync(readFileSync(join(outDir, file))).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'));
const frameFiles = Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]);
const loader = gzipped('widget.js');
const frame = frameFiles.reduce((sum, file) => sum + gzipped(file), 0);
console.log(`widget: widget.js ${kb(loader)} gzipped (budget ${kb(LOADER_BUDGET)}); frame ${kb(frame)} gzipped (${frameFiles.join(', ')})`);
if (loader > LOADER_BUDGET) {
  console.error(`widget.js is ${kb(loader)} gzipped, over its ${kb(LOADER_BUDGET)} budget`);
  process.exit(1);
}
