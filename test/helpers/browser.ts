// Real-browser tests of the team app and the widget: Debian's Chromium driven by playwright-core
// (never a download), an axe-core check of whatever a page or frame shows, host pages on origins
// of their own (for the widget), and screenshots of every open page when a step fails, under
// test-results/browser/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Frame, type Page } from 'playwright-core';

export const CHROMIUM = process.env.LOOPDESK_CHROMIUM ?? '/usr/bin/chromium';
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
export type ViewportName = keyof typeof VIEWPORTS;

const OUTPUT = fileURLToPath(new URL('../../test-results/browser/', import.meta.url));
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });
}

/** A fresh browser profile (its own cookies) on the server, at a viewport (`options` add to Playwright's, e.g. a time zone). */
export function appContext(browser: Browser, baseURL: string, viewport: ViewportName = 'desktop', options: BrowserContextOptions = {}): Promise<BrowserContext> {
  // The app's CSP allows only its own scripts; axe is injected by the test.
  return browser.newContext({ baseURL, viewport: VIEWPORTS[viewport], bypassCSP: true, reducedMotion: 'reduce', ...options });
}

/**
 * Fails on any serious or critical axe-core violation of what `page` (or a frame) shows now. axe
 * is evaluated rather than added as a script, so a page's own CSP need not be bypassed.
 */
export async function assertAccessible(page: Page | Frame, screen: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`);
  });
  assert.deepEqual(violations, [], `axe found serious or critical problems on ${screen}:\n${violations.join('\n')}`);
}

/** Runs `step`; when it fails, saves a screenshot of each page under test-results/browser/<name>/. */
export async function withScreenshots<T>(name: string, pages: () => Page[], step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const dir = join(OUTPUT, name.replace(/[^a-z0-9]+/gi, '-').toLowerCase());
    mkdirSync(dir, { recursive: true });
    for (const [i, page] of pages().entries()) {
      if (page.isClosed()) continue;
      const file = join(dir, `page-${i + 1}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      (error as Error).message += `\n  screenshot: ${file} (${page.url()})`;
    }
    throw error;
  }
}

export interface HostPage {
  /** The page's URL: http://{hostname}:{port}/ */
  url: string;
  close(): Promise<void>;
}

/**
 * A page of a site that embeds the widget, on an origin of its own: `hostname` is what the browser
 * sees (`localhost` and `127.0.0.1` are different origins, served by the same loopback listener).
 */
export async function serveHostPage(hostname: string, body: string): Promise<HostPage> {
  const server = createServer((request, response) => {
    if (request.url !== '/') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page</title></head><body><main>${body}</main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://${hostname}:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs `use` with a fresh browser profile and a page in it (CSPs enforced), screenshots on failure. */
export async function withPage(t: TestContext, browser: Browser, use: (page: Page, context: BrowserContext) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await withScreenshots(t.name, () => context.pages(), () => use(page, context));
  } finally {
    await context.close();
  }
}
