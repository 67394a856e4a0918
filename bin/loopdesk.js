#!/usr/bin/env node
// Entry point of the `loopdesk` command; the code lives in dist/ (built by `npm install`).
import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';

// better-sqlite3 crashes an older Node with a segmentation fault, so say what to do instead.
const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const [oldestMajor] = engines.node.match(/\d+/);
if (Number(process.versions.node.split('.')[0]) < Number(oldestMajor)) {
  process.stderr.write(
    `loopdesk: this is Node ${process.versions.node}; Loopdesk needs Node ${engines.node} (package.json "engines"). ` +
      'Install Node 24 (README.md, "Requirements"), then run `npm install` again.\n',
  );
  process.exit(1);
}

// V8's compiled code kept between runs (in the OS's temporary folder): a start or an admin command
// spends a tenth less CPU loading modules. Node 22.0 has no such cache; it runs without.
module.enableCompileCache?.();

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('loopdesk: dist/ is missing; run `npm run build` first\n');
  process.exit(1);
}
const { main } = await import(cli.href);
await main(process.argv.slice(2));
