import { createRequire } from 'node:module';

/** The package's version, from its package.json (one folder up from src/ and dist/). */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
