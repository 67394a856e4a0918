// The team's app (docs/accounts.md): the single-page app Vite builds into dist/web/app, served at
// /app. Hashed assets are cached for a year; every other path under /app is the SPA's index.html,
// revalidated on each load so a new build is picked up at once. The app is a client of /api/v1
// like any other (docs/app.md); nothing here knows about its screens.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const APP_PREFIX = '/app';

export interface WebAppOptions {
  /** The Vite build's output: index.html and assets/. */
  root: string;
}

export class WebAppMissingError extends Error {
  constructor(root: string) {
    super(`the team app is not built (${join(root, 'index.html')} is missing): run \`npm run build\` (npm install runs it)`);
  }
}

/**
 * Scripts and styles come only from this server; the API is same-origin; the app is never framed
 * (clickjacking a signed-in session). Styles set through the DOM (Preact's `style` props) are
 * not inline styles in CSP's sense.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

/** Throws WebAppMissingError unless `root` holds a build (the server checks before it touches the database). */
export function assertWebAppBuilt(root: string): void {
  if (!existsSync(join(root, 'index.html'))) throw new WebAppMissingError(root);
}

export async function webApp(app: FastifyInstance, { root }: WebAppOptions): Promise<void> {
  assertWebAppBuilt(root);
  const indexFile = join(root, 'index.html');

  await app.register(fastifyStatic, {
    root: join(root, 'assets'),
    prefix: `${APP_PREFIX}/assets/`,
    // Registered inside this plugin only; another front end may register its own.
    decorateReply: false,
    index: false,
    // File names carry a content hash: a changed file is a new URL.
    immutable: true,
    maxAge: '365d',
  });

  // Read at each load (a small file the OS keeps cached): a rebuild under a running server
  // replaces the hashed assets the page names, so a page read once would point at deleted files.
  const sendIndex = async (_request: unknown, reply: FastifyReply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('referrer-policy', 'same-origin')
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(await readFile(indexFile));
  // Every path of the app is a screen the SPA's router draws (a reload of /app/issues/APP-3 included).
  app.get(APP_PREFIX, { schema: { hide: true } }, sendIndex);
  app.get(`${APP_PREFIX}/*`, { schema: { hide: true } }, sendIndex);
}
