// A Vite plugin that prints how much JavaScript the first load of /app costs (gzipped) and fails
// the build over the budget: the entry chunks and everything they import statically, not the
// chunks loaded later through import().
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function firstLoadBudget(limitBytes: number): Plugin {
  return {
    name: 'loopdesk-first-load-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, { code: string; imports: string[]; isEntry: boolean }>();
      for (const output of Object.values(bundle)) if (output.type === 'chunk') chunks.set(output.fileName, output);
      const firstLoad = new Set<string>();
      const visit = (fileName: string) => {
        if (firstLoad.has(fileName)) return;
        firstLoad.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
      };
      for (const [fileName, chunk] of chunks) if (chunk.isEntry) visit(fileName);
      const gzipped = [...firstLoad].reduce((sum, fileName) => sum + gzipSync(chunks.get(fileName)!.code, { level: 9 }).length, 0);
      const verdict = gzipped <= limitBytes ? 'within' : 'OVER';
      console.log(`\nFirst load of /app: ${kb(gzipped)} of JavaScript gzipped (${firstLoad.size} file(s)), ${verdict} the budget of ${kb(limitBytes)}\n`);
      if (gzipped > limitBytes) this.error(`the first load of /app is ${kb(gzipped)} of gzipped JavaScript, over the ${kb(limitBytes)} budget (docs/app.md)`);
    },
  };
}
