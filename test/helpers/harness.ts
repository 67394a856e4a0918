// The integration-test harness: an app on a fresh database per describe block, two workspaces
// with their keys, and an HTTP client whose every JSON response is checked against openapi.json.
import { after, before, describe } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/app.js';
import { STREAM_DEFAULTS, SUMMARY_DEFAULTS, WEBHOOK_DEFAULTS, type StreamConfig, type WebhookConfig } from '../../src/config.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import type { Member } from '../../src/domain/accounts/actor.js';
import { createServices, type ServiceOptions, type Services } from '../../src/services.js';
import { DIALECTS, migratedDatabaseUrl, type DialectName } from './databases.js';
import { ResponseChecker } from './openapi-check.js';

/**
 * scrypt at N = 2^10 in tests (a few ms a hash instead of a few hundred): the same code and hash
 * format; src/domain/accounts/passwords.ts keeps the production cost, and test/unit/passwords.test.ts checks it.
 */
export const TEST_SCRYPT = { ln: 10, r: 8, p: 1 };

export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw payload sent as is (for malformed JSON and the like). */
  payload?: string | Buffer;
  headers?: Record<string, string>;
}

export interface Client {
  request<T = any>(method: string, url: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = any>(url: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  post<T = any>(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  patch<T = any>(url: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  delete<T = any>(url: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

/** The Client of a `request` function: get, post, patch and delete in its terms. */
export function clientOf(request: Client['request']): Client {
  return {
    request,
    get: (url, options) => request('GET', url, options),
    post: (url, body, options) => request('POST', url, { ...options, body }),
    patch: (url, body, options) => request('PATCH', url, { ...options, body }),
    delete: (url, options) => request('DELETE', url, options),
  };
}

export interface WorkspaceFixture {
  id: string;
  owner: Member;
  /** Read-write key created by the owner. */
  key: string;
  /** Read-only key created by the owner. */
  readOnlyKey: string;
  /** Read-write key with no member. */
  memberlessKey: string;
  /** A key that has been revoked. */
  revokedKey: string;
  api: Client;
}

export interface TestContext {
  dialect: DialectName;
  /** Where the context's database lives (a SQLite file or a PostgreSQL database). */
  databaseUrl: string;
  app: FastifyInstance;
  database: DatabaseHandle;
  services: Services;
  /** Two independent workspaces, for isolation tests. */
  a: WorkspaceFixture;
  b: WorkspaceFixture;
  /** A client presenting `key` (or no Authorization header when null). */
  client(key: string | null, extraHeaders?: Record<string, string>): Client;
}

export async function createWorkspaceFixture(services: Services, client: TestContext['client'], name: string): Promise<WorkspaceFixture> {
  const { admin } = services;
  const workspace = await admin.createWorkspace(name);
  const owner = await admin.createMember({ workspaceId: workspace.id, name: `${name} Owner`, role: 'owner', email: `owner@${name.toLowerCase()}.test` });
  const key = await admin.createKey({ workspaceId: workspace.id, memberId: owner.id });
  const readOnly = await admin.createKey({ workspaceId: workspace.id, memberId: owner.id, readOnly: true });
  const memberless = await admin.createKey({ workspaceId: workspace.id });
  const revoked = await admin.createKey({ workspaceId: workspace.id, memberId: owner.id });
  await admin.revokeKey(revoked.id);
  return {
    id: workspace.id, owner, key: key.key, readOnlyKey: readOnly.key, memberlessKey: memberless.key, revokedKey: revoked.key,
    api: client(key.key),
  };
}

/** What a test may choose about its app: a clock, a detector, a logger writing to a stream the test reads, webhook settings, … */
export type TestAppOptions = Omit<AppDeps, 'database' | 'services'> & Pick<ServiceOptions, 'clock' | 'detector' | 'proofOfWorkMaxNumber' | 'headline' | 'mail' | 'email' | 'searchFoldMs' | 'ssoTimeoutMs' | 'defaultCalendar'> & {
  webhooks?: Partial<WebhookConfig>;
  streams?: Partial<StreamConfig>;
  summaries?: Partial<ServiceOptions['summaries']>;
};

/** Proof-of-work challenges of test apps hide a number up to this (a few ms to solve) unless a test asks otherwise. */
const TEST_PROOF_OF_WORK_MAX = 1000;

/** One checker per document text in the process: its compiled validators serve every context. */
const checkersByDocument = new Map<string, ResponseChecker>();
function checkerFor(documentText: string): ResponseChecker {
  let checker = checkersByDocument.get(documentText);
  if (!checker) checkersByDocument.set(documentText, (checker = new ResponseChecker(JSON.parse(documentText))));
  return checker;
}

/** An app on one database, as tests drive it in process. */
export interface TestApp extends Pick<TestContext, 'databaseUrl' | 'app' | 'database' | 'services' | 'client'> {
  /** From now on, every JSON answer is checked against the documents served to `key` (an API key). */
  checkAnswers(key: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The app on the database at `databaseUrl` (migrated first), with clients whose every JSON answer
 * is checked against the document that describes it once `checkAnswers` was called; the
 * background workers are not started.
 */
export async function openTestApp(databaseUrl: string, appOptions: TestAppOptions = {}): Promise<TestApp> {
  const database = createDatabase(databaseUrl);
  await database.migrate();
  const services = createServices(database, {
    clock: appOptions.clock, detector: appOptions.detector, headline: appOptions.headline, webhooks: { ...WEBHOOK_DEFAULTS, ...appOptions.webhooks },
    mail: appOptions.mail, email: appOptions.email,
    proofOfWorkMaxNumber: appOptions.proofOfWorkMaxNumber ?? TEST_PROOF_OF_WORK_MAX,
    passwordHashing: TEST_SCRYPT,
    streams: { ...STREAM_DEFAULTS, ...appOptions.streams },
    summaries: { ...SUMMARY_DEFAULTS, ...appOptions.summaries },
    searchFoldMs: appOptions.searchFoldMs,
    ssoTimeoutMs: appOptions.ssoTimeoutMs,
    defaultCalendar: appOptions.defaultCalendar,
  });
  const app = await buildApp({ ...appOptions, database, services });
  // One checker per served document: /widget/v1's routes are described by the widget API's own.
  let checkers: { api: ResponseChecker; widget: ResponseChecker } | null = null;

  const client = (key: string | null, extraHeaders: Record<string, string> = {}): Client => {
    const request = async (method: string, url: string, options: RequestOptions = {}): Promise<ApiResponse> => {
      const headers: Record<string, string> = { ...extraHeaders, ...options.headers };
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let payload = options.payload;
      if (options.body !== undefined) {
        payload = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await app.inject({ method: method as never, url, headers, payload });
      const isJson = String(response.headers['content-type'] ?? '').startsWith('application/json');
      const body = isJson ? response.json() : response.body;
      if (isJson && checkers) (url.startsWith('/widget/v1/') ? checkers.widget : checkers.api).check(method, url, response.statusCode, body);
      return { status: response.statusCode, headers: response.headers, body, text: response.body };
    };
    return clientOf(request);
  };

  return {
    databaseUrl, app, database, services, client,
    async checkAnswers(key) {
      const api = client(key);
      checkers = {
        api: checkerFor((await api.get('/api/v1/openapi.json')).text),
        widget: checkerFor((await api.get('/widget/v1/openapi.json')).text),
      };
    },
    async close() {
      await services.live.close();
      await app.close();
      await services.webhookDispatcher.stop(0);
      await database.close();
    },
  };
}

export async function createTestContext(
  dialect: DialectName,
  appOptions: TestAppOptions = {},
): Promise<TestContext & { close(): Promise<void> }> {
  const opened = await openTestApp(await migratedDatabaseUrl(dialect), appOptions);
  const a = await createWorkspaceFixture(opened.services, opened.client, 'Alpha');
  const b = await createWorkspaceFixture(opened.services, opened.client, 'Beta');
  await opened.checkAnswers(a.key);
  return { ...opened, dialect, a, b };
}

/**
 * `describe` once per dialect, with a fresh context shared by the block's tests; `define` also
 * learns the dialect, for tests that only one of them can run.
 */
export function describeEachDialect(
  title: string,
  define: (context: () => TestContext, dialect: DialectName) => void,
  appOptions: TestAppOptions = {},
): void {
  for (const dialect of DIALECTS) {
    describe(`${title} [${dialect}]`, () => {
      let context: (TestContext & { close(): Promise<void> }) | undefined;
      before(async () => {
        context = await createTestContext(dialect, appOptions);
      });
      after(async () => {
        await context?.close();
      });
      define(() => {
        if (!context) throw new Error('test context not ready');
        return context;
      }, dialect);
    });
  }
}

let counter = 0;
/** A name unique within the test process, for fixtures that must not collide. */
export const unique = (prefix: string): string => `${prefix} ${process.pid}-${++counter}`;
