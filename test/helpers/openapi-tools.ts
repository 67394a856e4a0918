// Third-party tools run against the document a real server serves: Redocly CLI's linter,
// openapi-typescript's type generator, and a strict TypeScript compile and run of an openapi-fetch
// client (test/fixtures/openapi-fetch-client.ts) typed by what the generator made.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { freshDatabaseUrl, type DialectName } from './databases.js';
import { startServer, type RunningServer } from './server-process.js';
import { RUN_TYPESCRIPT } from './typescript.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = join(ROOT, 'test', 'fixtures');
const CLIENT_FIXTURE = join(FIXTURES, 'openapi-fetch-client.ts');
/** The module name the client fixture imports its generated types from. */
const TYPES_MODULE = 'loopdesk-openapi';

const npmBin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `file` to completion (killed after `timeoutMs`), with `env` added to this process's environment. */
export function runCommand(
  file: string,
  args: string[],
  { cwd = ROOT, env = {}, timeoutMs = 120_000 }: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const options = { cwd, env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 };
    execFile(file, args, options, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(new Error(`${file} ${args.join(' ')}: ${error.message}\n${stderr}`));
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

async function apiRequest(baseUrl: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** GET /api/v1/openapi.json from the server, saved as `<dir>/openapi.json` for the tools. */
export async function saveServedDocument(baseUrl: string, key: string, dir: string): Promise<string> {
  const document = await apiRequest(baseUrl, key, 'GET', '/api/v1/openapi.json');
  const path = join(dir, 'openapi.json');
  writeFileSync(path, JSON.stringify(document, null, 2));
  return path;
}

export interface ServedDocument {
  server: RunningServer;
  /** The first-start banner's key. */
  key: string;
  /** A temp dir for the tools' files, removed after the block. */
  dir: string;
  documentPath: string;
}

/**
 * For the enclosing describe block: the real server (dist/) on a fresh, empty database of `dialect`
 * (its first start), and the document it serves saved for the tools.
 */
export function servedDocumentFixture(dialect: DialectName): () => ServedDocument {
  let server: RunningServer | undefined;
  let dir: string | undefined;
  let served: ServedDocument | undefined;
  before(async () => {
    // Webhook URLs are not resolved here: Schemathesis invents host names, and a name this
    // machine's resolver never answers for holds each create for the guard's 3 s (SSRF is
    // tested in webhook-ssrf.test.ts). Event streams end after 200 ms, so that the tools read a
    // GET /events/stream answer to its end (it is endless otherwise; event-stream.test.ts tests it).
    server = await startServer({
      databaseUrl: await freshDatabaseUrl(dialect), firstStart: true,
      env: { LOOPDESK_WEBHOOKS_ALLOW_PRIVATE: '1', LOOPDESK_SSE_MAX_MS: '200' },
    });
    const key = server.bootstrapKey()!;
    dir = mkdtempSync(join(tmpdir(), 'loopdesk-openapi-tools-'));
    served = { server, key, dir, documentPath: await saveServedDocument(server.baseUrl, key, dir) };
  });
  after(async () => {
    await server?.process.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!served) throw new Error('the served document is not ready');
    return served;
  };
}

/**
 * Resources of the key's workspace that requests may name: in a body (product, issue, conversation,
 * member, saved reply, calendar), or in the path of an operation no response links to (Schemathesis would
 * otherwise send it only made-up ids: a suggestion, an invitation's token, a webhook endpoint and one
 * of its deliveries, an attachment); the key's own id and a spare key's.
 */
export interface SeededReferences {
  productId: string;
  issueId: string;
  conversationId: string;
  memberId: string;
  savedReplyId: string;
  calendarId: string;
  keyId: string;
  spareKeyId: string;
  suggestionId: string;
  invitationToken: string;
  /** The address the invitation is for. */
  invitationEmail: string;
  webhookId: string;
  deliveryId: string;
  attachmentId: string;
  collectionId: string;
  articleId: string;
}

/** A mail with one attachment, as a provider forwards it to POST /inbound/email. */
const MAIL_WITH_ATTACHMENT = [
  'From: Ann <ann@example.com>', 'To: support@example.com', 'Subject: The export fails', 'Message-ID: <seeded@example.com>',
  'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="part"', '',
  '--part', 'Content-Type: text/plain', '', 'The export fails; the log is attached.',
  '--part', 'Content-Type: text/plain; name="log.txt"', 'Content-Disposition: attachment; filename="log.txt"', '', 'error 42',
  '--part--', '',
].join('\r\n');

export async function seedReferences(baseUrl: string, key: string): Promise<SeededReferences> {
  const get = async (path: string) => (await apiRequest(baseUrl, key, 'GET', path)).data;
  const post = async (path: string, body?: unknown) => (await apiRequest(baseUrl, key, 'POST', path, body)).data;
  const product = await post('/api/v1/products', { name: 'Schemathesis target' });
  // Subscribed before the issue is created, so that its event has a delivery (to a closed port: it fails and is retried).
  const webhook = await post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/loopdesk', events: ['issue.created'] });
  const issue = await post('/api/v1/issues', { product_id: product.id, title: 'Seeded issue' });
  const conversation = await post('/api/v1/conversations', { product_id: product.id, title: 'Seeded conversation' });
  const [suggestion] = await post(`/api/v1/conversations/${conversation.id}/triage`);
  const me = await get('/api/v1/me');
  const savedReply = await post('/api/v1/saved-replies', { title: 'Seeded reply', body: 'Thanks, {{contact.first_name}}.' });
  const calendar = await post('/api/v1/calendars', { name: 'Seeded hours', timezone: 'Europe/Berlin', hours: { mon: [['09:00', '17:00']] } });
  const collection = await post('/api/v1/collections', { product_id: product.id, name: 'Seeded collection' });
  const article = await post('/api/v1/articles', { product_id: product.id, title: 'Seeded article', body: 'How to' });
  const spare = await post('/api/v1/api-keys', { label: 'Schemathesis spare' });
  const invitationEmail = 'invited@example.com';
  const invitation = await post('/api/v1/members/invitations', { email: invitationEmail, role: 'agent' });
  const mail = await fetch(`${baseUrl}/api/v1/inbound/email?product_id=${product.id}`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'message/rfc822' }, body: MAIL_WITH_ATTACHMENT,
  });
  const mailText = await mail.text();
  assert.equal(mail.status, 202, mailText);
  const mailed = await get(`/api/v1/conversations/${JSON.parse(mailText).data.conversation_id}`);
  const attachment = mailed.messages.flatMap((message: { attachments: { id: string }[] }) => message.attachments)[0];
  // The fan-out writes the delivery after the issue's transaction commits.
  let deliveries: { id: string }[] = [];
  for (let waited = 0; deliveries.length === 0 && waited < 10_000; waited += 50) {
    deliveries = await get(`/api/v1/webhooks/${webhook.id}/deliveries`);
    if (deliveries.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(suggestion && attachment && deliveries[0], JSON.stringify({ suggestion, attachment, deliveries }));
  return {
    productId: product.id, issueId: issue.id, conversationId: conversation.id, memberId: me.member.id, savedReplyId: savedReply.id, calendarId: calendar.id,
    keyId: me.api_key_id, spareKeyId: spare.id, suggestionId: suggestion.id, invitationToken: new URL(invitation.url).pathname.split('/').at(-1)!, invitationEmail,
    webhookId: webhook.id, deliveryId: deliveries[0]!.id, attachmentId: attachment.id, collectionId: collection.id, articleId: article.id,
  };
}

export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  pointer: string;
}

export interface LintReport {
  errors: number;
  warnings: number;
  problems: LintProblem[];
}

/** `redocly lint --extends recommended` on the document, read from its JSON report. */
export async function redoclyLint(documentPath: string): Promise<LintReport> {
  const result = await runCommand(
    npmBin('redocly'),
    ['lint', documentPath, '--extends', 'recommended', '--format', 'json', '--max-problems', '1000'],
    { cwd: dirname(documentPath), env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
  );
  let report: { totals: { errors: number; warnings: number }; problems: any[] };
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(`redocly lint gave no JSON report (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
  return {
    errors: report.totals.errors,
    warnings: report.totals.warnings,
    problems: report.problems.map((problem) => ({
      ruleId: problem.ruleId,
      severity: problem.severity,
      message: problem.message,
      pointer: problem.location?.[0]?.pointer ?? '',
    })),
  };
}

/** openapi-typescript's output for the document, written as `<dir>/loopdesk-openapi.d.ts`. */
export async function generateTypes(documentPath: string, dir: string): Promise<string> {
  const typesPath = join(dir, `${TYPES_MODULE}.d.ts`);
  const result = await runCommand(npmBin('openapi-typescript'), [documentPath, '--output', typesPath]);
  assert.equal(result.code, 0, `openapi-typescript failed:\n${result.stdout}\n${result.stderr}`);
  return typesPath;
}

/** The names under `components.schemas` in generated types (none when it is `never`). */
export function namedSchemaTypes(typesPath: string): string[] {
  const source = ts.createSourceFile(typesPath, readFileSync(typesPath, 'utf8'), ts.ScriptTarget.Latest);
  const components = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === 'components',
  );
  const schemas = components?.members.find(
    (member): member is ts.PropertySignature => ts.isPropertySignature(member) && member.name.getText(source) === 'schemas',
  );
  if (!schemas?.type || !ts.isTypeLiteralNode(schemas.type)) return [];
  return schemas.type.members.flatMap((member) => (member.name ? [member.name.getText(source).replace(/^["']|["']$/g, '')] : []));
}

/** `tsc --strict --noEmit` of the client fixture, its `loopdesk-openapi` import mapped to `typesPath`. */
export async function compileClient(typesPath: string): Promise<CommandResult> {
  const dir = dirname(typesPath);
  const tsconfig = join(dir, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
        paths: { [TYPES_MODULE]: [typesPath] },
      },
      files: [CLIENT_FIXTURE],
    }),
  );
  return runCommand(npmBin('tsc'), ['-p', tsconfig, '--pretty', 'false']);
}

/** Runs the client fixture against the server; resolves with the JSON line it prints. */
export async function runClient(baseUrl: string, key: string): Promise<Record<string, unknown>> {
  const result = await runCommand(process.execPath, [...RUN_TYPESCRIPT, CLIENT_FIXTURE], {
    env: { LOOPDESK_URL: baseUrl, LOOPDESK_API_KEY: key },
  });
  assert.equal(result.code, 0, `the openapi-fetch client failed:\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!);
}
