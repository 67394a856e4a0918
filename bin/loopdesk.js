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

// The server's young generation, bounded. V8 sizes it for the machine's memory (on 64-bit Linux
// up to two semi-spaces of 64 MB), and a server under load then holds 150–300 MB more than it
// uses; 16 MB costs about the same CPU (docs/operations.md, "Memory"). The size is fixed when V8
// starts, so `serve` starts Node again in this same process (same pid, arguments and
// environment) with the bound, unless the operator sized the heap (NODE_OPTIONS or node's own
// arguments).
const heapSized = (flags) => /--max[-_](semi[-_]space|heap)[-_]size\b/.test(flags);
if ((process.argv[2] ?? 'serve') === 'serve' && typeof process.execve === 'function' &&
    !heapSized(process.execArgv.join(' ')) && !heapSized(process.env.NODE_OPTIONS ?? '')) {
  const [script, ...args] = process.argv.slice(1);
  process.execve(process.execPath, [process.execPath, '--max-semi-space-size=16', ...process.execArgv, script, ...args]);
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
