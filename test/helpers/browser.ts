// Real-browser tests of the team app: Debian's Chromium driven by playwright-core (never a
// download), an axe-core check of whatever a page shows, and screenshots of every open page when
// a step fails, under test-results/browser/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.LOOPDESK_CHROMIUM ?? '/usr/bin/chromium';
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
export type ViewportName = keyof typeof VIEWPORTS;

const OUTPUT = fileURLToPath(new URL('../../test-results/browser/', import.meta.url));
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });
}

/** A fresh browser profile (its own cookies) on the server, at a viewport. */
export function appContext(browser: Browser, baseURL: string, viewport: ViewportName = 'desktop'): Promise<BrowserContext> {
  // The app's CSP allows only its own scripts; axe is injected by the test.
  return browser.newContext({ baseURL, viewport: VIEWPORTS[viewport], bypassCSP: true, reducedMotion: 'reduce' });
}

/** Fails on any serious or critical axe-core violation of what `page` shows now. */
export async function assertAccessible(page: Page, screen: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
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
