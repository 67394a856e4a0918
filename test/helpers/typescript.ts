// The flags that let a Node process run this repository's TypeScript (test/helpers/typescript-hooks.mjs),
// for the processes the tests and benchmarks start: a path that holds whatever their working folder.
import { fileURLToPath } from 'node:url';

export const RUN_TYPESCRIPT = ['--import', fileURLToPath(new URL('./typescript-hooks.mjs', import.meta.url))];
