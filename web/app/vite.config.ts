// Builds the team app (web/app) into dist/web/app, served by the server at /app
// (src/http/web-app.ts). `npm run build:app`; `npm run dev:app` serves it with live reload
// against a server on 127.0.0.1:3000 (LOOPDESK_DEV_SERVER to point elsewhere).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { firstLoadBudget } from './scripts/first-load-budget.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const server = process.env.LOOPDESK_DEV_SERVER ?? 'http://127.0.0.1:3000';
// The server refuses cookie-authenticated writes whose Origin is not its own (CSRF): the dev
// proxy presents the server's origin.
const proxy = { target: server, configure: (p: any) => p.on('proxyReq', (request: any) => request.setHeader('origin', server)) };

export default defineConfig({
  root,
  base: '/app/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web/app/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
  },
  plugins: [firstLoadBudget(200 * 1024)],
  server: { proxy: { '/api': proxy, '/auth': proxy, '/widget': proxy } },
  logLevel: 'warn',
});
