// Waiting for what a screen should show (playwright-core has no test runner's `expect`).
import type { Locator } from 'playwright-core';

const TIMEOUT_MS = 10_000;

/** Resolves once `locator` is visible; fails with what was looked for. */
export async function expect(locator: Locator, timeout = TIMEOUT_MS): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout });
}

/** Resolves once `locator` is gone (hidden or detached). */
export async function expectGone(locator: Locator, timeout = TIMEOUT_MS): Promise<void> {
  await locator.first().waitFor({ state: 'hidden', timeout });
}

/** Polls `check` until it returns true (for state on the server). */
export async function eventually(check: () => Promise<boolean>, what: string, timeout = TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
