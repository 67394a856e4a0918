// Runs the TypeScript sources (tests, benchmarks, scripts) on Node itself: `node --import
// ./test/helpers/typescript-hooks.mjs file.ts`. Node strips the types (every file keeps to the
// erasable syntax, `erasableSyntaxOnly` in tsconfig.json); this adds the one thing it leaves to a
// loader, finding `./module.ts` where the source names `./module.js` (as tsc and the built dist/
// need), and keeps V8's compiled code between runs. Both are in this thread, with no loader thread
// and no transform cache to read: a test file's process starts in half the CPU tsx took.
import { existsSync } from 'node:fs';
import { enableCompileCache, registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

// In the OS's temporary folder (Node's default); a process that cannot write there runs without it.
enableCompileCache();

registerHooks({
  resolve(specifier, context, nextResolve) {
    const relative = specifier.startsWith('./') || specifier.startsWith('../');
    if (relative && specifier.endsWith('.js') && context.parentURL?.startsWith('file:') && !context.parentURL.includes('/node_modules/')) {
      const url = new URL(specifier, context.parentURL);
      if (!existsSync(fileURLToPath(url))) {
        const source = new URL(`${url.href.slice(0, -'.js'.length)}.ts`);
        if (existsSync(fileURLToPath(source))) return nextResolve(source.href, context);
      }
    }
    return nextResolve(specifier, context);
  },
});
