// Real-browser tests: Debian's Chromium (never a download) driven by playwright-core, host pages
// served from other origins than the server's, and a screenshot of every page when a test fails.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.LOOPDESK_CHROMIUM ?? '/usr/bin/chromium';
/** Where failing tests leave their screenshots (gitignored). */
export const BROWSER_OUTPUT_DIR = fileURLToPath(new URL('../../test-results/browser/', import.meta.url));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

export interface HostPage {
  /** The page's URL: http://{hostname}:{port}/ */
  url: string;
  close(): Promise<void>;
}

/**
 * A host page on its own origin, as a customer's site would be: `hostname` is what the browser
 * sees (`localhost` and `127.0.0.1` are different origins, served by the same loopback listener).
 */
export async function serveHostPage(hostname: string, body: string): Promise<HostPage> {
  const server: Server = createServer((request, response) => {
    if (request.url !== '/') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page</title></head><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostname}:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Runs `use` with a fresh browser context (its own storage) and a page in it; when `use` throws,
 * every page of the context is saved as a screenshot under BROWSER_OUTPUT_DIR first.
 */
export async function withPage(t: TestContext, browser: Browser, use: (page: Page, context: BrowserContext) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  try {
    await use(await context.newPage(), context);
  } catch (error) {
    mkdirSync(BROWSER_OUTPUT_DIR, { recursive: true });
    const name = t.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 80);
    await Promise.all(context.pages().map((page, i) => page.screenshot({ path: join(BROWSER_OUTPUT_DIR, `${name}-${i}.png`), fullPage: true }).catch(() => undefined)));
    process.stderr.write(`screenshots of "${t.name}" in ${BROWSER_OUTPUT_DIR}\n`);
    throw error;
  } finally {
    await context.close();
  }
}
