// What the team app's browser tests share: a real server on a fresh database, its first-start key
// for arranging data through /api/v1, and people signed in through the app's own pages.
import { expect } from './browser-expect.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { appContext, launchBrowser } from './browser.js';
import { freshDatabaseUrl, type DialectName } from './databases.js';
import { startServer, type RunningServer } from './server-process.js';

export interface AppServer {
  server: RunningServer;
  baseUrl: string;
  /** The first start's API key (the owner's). */
  key: string;
  /** The first start's one-time link for the owner (it names no email: the owner picks one). */
  ownerInvitationUrl: string;
  api<T = any>(method: string, path: string, body?: unknown): Promise<T>;
}

export async function startAppServer(dialect: DialectName, env: Record<string, string> = {}): Promise<AppServer> {
  const server = await startServer({ databaseUrl: await freshDatabaseUrl(dialect), firstStart: true, env });
  const key = server.bootstrapKey()!;
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const ownerInvitationUrl = /(http\S+\/app\/invite\/\S+)/.exec(server.process.stdout)![1];
  return { server, baseUrl: server.baseUrl, key, ownerInvitationUrl, api };
}

/** A browser page on a fresh app server, with the owner signed in unless told otherwise. */
export interface AppPage {
  browser: Browser;
  app: AppServer;
  context: BrowserContext;
  page: Page;
}

export async function openAppPage(dialect: DialectName, { signedIn = true, env = {} as Record<string, string> } = {}): Promise<AppPage> {
  const opened: Partial<AppPage> = {};
  try {
    opened.browser = await launchBrowser();
    opened.app = await startAppServer(dialect, env);
    opened.context = await appContext(opened.browser, opened.app.baseUrl);
    opened.page = await opened.context.newPage();
    opened.page.setDefaultTimeout(10_000);
    if (signedIn) await acceptInvitation(opened.page, opened.app.ownerInvitationUrl, 'Grace Hopper', 'grace@example.com');
    return opened as AppPage;
  } catch (error) {
    // Nothing left behind to keep the test process alive.
    await closeAppPage(opened);
    throw error;
  }
}

/** Closes what openAppPage opened (whatever part of it did open). */
export async function closeAppPage(opened: Partial<AppPage>): Promise<void> {
  await opened.browser?.close();
  opened.app?.server.kill('SIGTERM');
  await opened.app?.server.process.exited;
}

export const PASSWORD = 'correct horse battery staple';

/** Accepts an invitation link in the app (name and password, and an email when the link names none), which signs the person in. */
export async function acceptInvitation(page: Page, url: string, name: string, email?: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('button', { name: /^Join / }));
  if (email) await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: /^Join / }).click();
  await expect(page.getByRole('link', { name: 'Inbox' }));
}

/** Waits until the screen has loaded what it shows (no loading indicator left). */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('#root > *') !== null && document.querySelector('.loading') === null);
}

/** Signs in through the sign-in page. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/app');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('link', { name: 'Inbox' }));
}

export interface RacePage {
  page: Page;
  /** How many live events the app's EventSource has handed to its listeners. */
  liveEvents(): Promise<number>;
  /** Whether the app's live stream is open. */
  liveConnected(): Promise<boolean>;
  /** Stops the page's clock: timers (a live reload's debounce, effects after paint) wait for `runFor`. */
  pauseClock(): Promise<void>;
}

/**
 * A new page of the context for races between a live event's debounced reload and what the user
 * does meanwhile: its clock is the test's, and it counts the live events the app received, so a
 * test can let an event in, act, and only then let the timers run.
 */
export async function openRacePage(context: BrowserContext): Promise<RacePage> {
  const page = await context.newPage();
  await page.addInitScript(() => {
    const counted = window as unknown as { liveEvents: number; liveSources: EventSource[] };
    counted.liveEvents = 0;
    counted.liveSources = [];
    const Native = EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        counted.liveSources.push(this);
      }
    };
    const add = Native.prototype.addEventListener;
    Native.prototype.addEventListener = function (this: EventSource, type: string, listener: any, options?: any) {
      return add.call(this, type, (event: Event) => {
        counted.liveEvents++;
        listener(event);
      }, options);
    } as typeof add;
  });
  await page.clock.install();
  return {
    page,
    liveEvents: () => page.evaluate(() => (window as unknown as { liveEvents: number }).liveEvents),
    liveConnected: () => page.evaluate(() => (window as unknown as { liveSources: EventSource[] }).liveSources.some((source) => source.readyState === EventSource.OPEN)),
    pauseClock: async () => page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000)),
  };
}
