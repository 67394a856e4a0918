// The CLI as a package of its own: packed with npm pack, installed from the tarball (its
// dependencies from the registry) in a folder that cannot see the repository's node_modules, then
// run against a server, as the command line and as an MCP server.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_ROOT, ldkEnvironment, type ListeningContext, listeningContext, tempDir } from '../helpers/ldk.js';

/** The environment without what npm (npm test) and Node pass down: npm_config_* would aim npm at the repository. */
function outsideEnvironment(env: Record<string, string> = {}): Record<string, string> {
  const kept = Object.entries(ldkEnvironment(env)).filter(([name]) => !/^(npm_|INIT_CWD$|NODE_PATH$|NODE_OPTIONS$)/i.test(name));
  return Object.fromEntries(kept) as Record<string, string>;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    execFile(command, args, { cwd, env: outsideEnvironment(env), timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('the @loopdesk/cli package', () => {
  let server: ListeningContext;
  let packDir: string;
  let installDir: string;
  let ldk: string;
  before(async () => {
    server = await listeningContext('sqlite');
    packDir = tempDir('ldk-pack-');
    // cli/dist is built already (npm test builds first); prepack would rebuild it under other tests' feet.
    const pack = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], CLI_ROOT);
    assert.equal(pack.code, 0, pack.stderr);
    const [{ filename }] = JSON.parse(pack.stdout);
    installDir = tempDir('ldk-install-');
    const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(packDir, filename)], installDir);
    assert.equal(install.code, 0, install.stderr);
    ldk = join(installDir, 'node_modules', '.bin', 'ldk');
  });
  after(async () => {
    await server.close();
    for (const dir of [packDir, installDir]) rmSync(dir, { recursive: true, force: true });
  });

  it('holds the build, the entry point and the README, not the sources', () => {
    const root = join(installDir, 'node_modules', '@loopdesk', 'cli');
    for (const file of ['bin/ldk.js', 'dist/main.js', 'dist/generated/openapi-document.js', 'README.md', 'package.json']) {
      assert.ok(existsSync(join(root, file)), file);
    }
    assert.ok(!existsSync(join(root, 'src')));
    assert.ok(!existsSync(join(root, 'scripts')));
  });

  it('installs no native module and nothing of the server', () => {
    const files = filesUnder(join(installDir, 'node_modules'));
    assert.deepEqual(files.filter((file) => file.endsWith('.node') || file.endsWith('binding.gyp')), []);
    for (const serverPackage of ['fastify', 'better-sqlite3', 'pg', 'kysely', 'loopdesk']) {
      assert.ok(!existsSync(join(installDir, 'node_modules', serverPackage)), serverPackage);
    }
  });

  it('runs: --help without a server, then commands against one', async () => {
    const help = await run(ldk, ['--help'], installDir);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: ldk/);
    const env = { HOME: tempDir('ldk-home-'), LOOPDESK_URL: server.url, LOOPDESK_API_KEY: server.a.key };
    const whoami = await run(ldk, ['whoami', '--json'], installDir, env);
    assert.equal(whoami.code, 0, whoami.stderr);
    assert.equal(JSON.parse(whoami.stdout).data.member.id, server.a.owner.id);
    const product = await run(ldk, ['product', 'create', 'Packaged'], installDir, env);
    assert.match(product.stdout, /^Created Packaged \(slug packaged, issues PAC-…\)/);
  });

  it('serves MCP from its own copy of the SDK', async () => {
    const transport = new StdioClientTransport({
      command: ldk, args: ['mcp'], cwd: installDir,
      env: outsideEnvironment({ HOME: tempDir('ldk-home-'), LOOPDESK_URL: server.url, LOOPDESK_API_KEY: server.a.key }),
    });
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      assert.equal((result.structuredContent as any).data.workspace_id, server.a.id);
    } finally {
      await client.close();
    }
  });
});
