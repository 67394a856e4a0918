#!/usr/bin/env node
// Entry point of the `loopdesk` command; the code lives in dist/ (built by `npm install`).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('loopdesk: dist/ is missing; run `npm run build` first\n');
  process.exit(1);
}
const { main } = await import(cli.href);
await main(process.argv.slice(2));
