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

/** Resources of the key's workspace that requests may name (product, issue, conversation, member, saved reply), the key's own id and a spare key's. */
export interface SeededReferences {
  productId: string;
  issueId: string;
  conversationId: string;
  memberId: string;
  savedReplyId: string;
  keyId: string;
  spareKeyId: string;
}

export async function seedReferences(baseUrl: string, key: string): Promise<SeededReferences> {
  const post = async (path: string, body: unknown) => (await apiRequest(baseUrl, key, 'POST', path, body)).data;
  const product = await post('/api/v1/products', { name: 'Schemathesis target' });
  const issue = await post('/api/v1/issues', { product_id: product.id, title: 'Seeded issue' });
  const conversation = await post('/api/v1/conversations', { product_id: product.id, title: 'Seeded conversation' });
  const me = (await apiRequest(baseUrl, key, 'GET', '/api/v1/me')).data;
  const savedReply = await post('/api/v1/saved-replies', { title: 'Seeded reply', body: 'Thanks, {{contact.first_name}}.' });
  const spare = await post('/api/v1/api-keys', { label: 'Schemathesis spare' });
  return {
    productId: product.id, issueId: issue.id, conversationId: conversation.id, memberId: me.member.id, savedReplyId: savedReply.id,
    keyId: me.api_key_id, spareKeyId: spare.id,
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
