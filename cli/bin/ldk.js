#!/usr/bin/env node
// Entry point of the `ldk` command; the code lives in dist/ (built by `npm install` at the
// repository's root, or `npm run build` here).
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('ldk: dist/ is missing; run `npm run build` first\n');
  process.exit(1);
}
await import(main.href);
