// Schemathesis, the pinned version from test/fixtures/schemathesis-requirements.txt, found at
// LOOPDESK_SCHEMATHESIS or in the cache virtual environment .ci/run installs it into, and run
// with test/fixtures/schemathesis.toml and its hooks against a real server.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { DialectName } from './databases.js';
import { FIXTURES, runCommand, seedReferences, servedDocumentFixture, type SeededReferences } from './openapi-tools.js';
import type { RunningServer } from './server-process.js';

const REQUIREMENTS = join(FIXTURES, 'schemathesis-requirements.txt');
const CONFIG = join(FIXTURES, 'schemathesis.toml');
const HOOKS = join(FIXTURES, 'schemathesis-hooks.py');

export const SCHEMATHESIS_VERSION = /^schemathesis==(\S+)$/m.exec(readFileSync(REQUIREMENTS, 'utf8'))![1];
/** Fixed, so a failure reproduces; the same seed as the reliability fuzzer. */
export const SCHEMATHESIS_SEED = 20261121;
/** Test cases per operation and phase, in the runs without the fuzzing phase. */
export const SCHEMATHESIS_MAX_EXAMPLES = 100;
/**
 * The fuzzing phase's random cases per operation, valid and invalid, every check on each: the
 * random input at volume is test/reliability/fuzz.test.ts's, on both databases (docs/testing.md,
 * "Sixteenth session").
 */
export const SCHEMATHESIS_FUZZING_EXAMPLES = 20;

/** The cases per operation a run of `phases` gets. */
export function examplesPerOperation(phases: readonly SchemathesisPhase[]): number {
  return phases.includes('fuzzing') ? SCHEMATHESIS_FUZZING_EXAMPLES : SCHEMATHESIS_MAX_EXAMPLES;
}

/** Schemathesis runs the phases it is given in this order, whatever the order given. */
export type SchemathesisPhase = 'examples' | 'coverage' | 'fuzzing' | 'stateful';

/** The virtual environment .ci/run installs into. */
function defaultVenv(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'loopdesk', 'venv');
}

const installHint = () =>
  `install it with \`bash .ci/run\`, or: python3 -m venv ${defaultVenv()} && ` +
  `${join(defaultVenv(), 'bin', 'pip')} install -r test/fixtures/schemathesis-requirements.txt ` +
  `(LOOPDESK_SCHEMATHESIS may point at another schemathesis ${SCHEMATHESIS_VERSION} executable)`;

/** The executable, or why it cannot be used (missing, or not the pinned version). */
export async function findSchemathesis(): Promise<{ path: string } | { problem: string }> {
  const path = process.env.LOOPDESK_SCHEMATHESIS || join(defaultVenv(), 'bin', 'schemathesis');
  const hint = installHint();
  if (!existsSync(path)) return { problem: `Schemathesis ${SCHEMATHESIS_VERSION} not found at ${path}; ${hint}` };
  const { stdout } = await runCommand(path, ['--version']);
  const version = /version (\S+)/.exec(stdout)?.[1];
  if (version !== SCHEMATHESIS_VERSION) {
    return { problem: `${path} is Schemathesis ${version ?? '(unknown version)'}, the suite pins ${SCHEMATHESIS_VERSION}; ${hint}` };
  }
  return { path };
}

export interface SchemathesisRun {
  passed: boolean;
  /** The closing SUMMARY section (operations, phases, failure counts, seed). */
  summary: string;
  /** Each failure with its reproduction, or '' when none. */
  failures: string;
}

function section(output: string, from: string, to?: string): string {
  const start = output.search(new RegExp(`^=+ (?:${from}) =+$`, 'm'));
  if (start < 0) return '';
  const end = to ? output.search(new RegExp(`^=+ (?:${to}) =+$`, 'm')) : -1;
  return output.slice(start, end > start ? end : undefined).trim();
}

/**
 * `schemathesis run` on the saved document against `origin`, authenticated with `key`, the seeded
 * resources handed to the hooks. Every check is on (Schemathesis 4 runs all by default).
 */
export async function runSchemathesis(options: {
  executable: string;
  documentPath: string;
  origin: string;
  key: string;
  references: SeededReferences;
  workDir: string;
  phases: SchemathesisPhase[];
}): Promise<SchemathesisRun> {
  const { executable, documentPath, origin, key, references, workDir, phases } = options;
  const result = await runCommand(
    executable,
    [
      '--config-file', CONFIG, 'run', documentPath,
      '--origin', origin,
      '--seed', String(SCHEMATHESIS_SEED),
      '--max-examples', String(examplesPerOperation(phases)),
      '--workers', '1',
      '--phases', phases.join(','),
      '--no-color',
    ],
    {
      cwd: workDir,
      timeoutMs: 10 * 60_000,
      env: {
        SCHEMATHESIS_HOOKS: HOOKS,
        LOOPDESK_API_KEY: key,
        // productId -> LOOPDESK_ST_PRODUCT_ID, and so on: what the hooks read.
        ...Object.fromEntries(Object.entries(references).map(([name, value]) => [`LOOPDESK_ST_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`, value])),
      },
    },
  );
  const output = result.stdout + result.stderr;
  const summary = section(output, 'SUMMARY');
  if (!summary) throw new Error(`schemathesis printed no summary (exit ${result.code}):\n${output.slice(-20_000)}`);
  return { passed: result.code === 0, summary, failures: section(output, 'FAILURES', 'WARNINGS|SUMMARY') };
}

/** The server's log lines at level error or above (a 500's cause, by its request id), for a failure's message. */
const serverErrors = (server: RunningServer) => {
  const lines = server.process.stdout.split('\n').filter((line) => Number(/"level":(\d+)/.exec(line)?.[1]) >= 50);
  return lines.length ? `The server logged:\n${lines.join('\n').slice(-20_000)}` : 'The server logged no error.';
};

const diagnoseLines = (t: TestContext, text: string) => {
  for (const line of text.split('\n')) if (line.trim()) t.diagnostic(line);
};

/**
 * A describe block that runs Schemathesis's `phases` against the document a real server serves on
 * a fresh database of `dialect`, every operation and every check, its summary printed as
 * diagnostics. Skipped loudly where Schemathesis is not installed, a failure in CI.
 */
export function describeSchemathesis(dialect: DialectName, phases: SchemathesisPhase[]): void {
  describe(`the served OpenAPI document under Schemathesis [${dialect}]`, () => {
    const served = servedDocumentFixture(dialect);
    const examples = phases.includes('fuzzing') ? `${SCHEMATHESIS_FUZZING_EXAMPLES} fuzzing cases per operation` : `${SCHEMATHESIS_MAX_EXAMPLES} examples`;
    it(`passes with every check (seed ${SCHEMATHESIS_SEED}, ${examples}; ${phases.join(', ')})`, async (t) => {
      const found = await findSchemathesis();
      if ('problem' in found) {
        assert.notEqual(process.env.CI, 'true', found.problem);
        process.stderr.write(`\n*** WARNING: ${found.problem}. The Schemathesis check is SKIPPED ***\n\n`);
        t.skip(found.problem);
        return;
      }
      const { server, key, dir, documentPath } = served();
      const run = await runSchemathesis({
        executable: found.path,
        documentPath,
        origin: server.baseUrl,
        key,
        references: await seedReferences(server.baseUrl, key),
        workDir: dir,
        phases,
      });
      diagnoseLines(t, run.summary);
      assert.ok(run.passed, `Schemathesis reported failures:\n${run.failures.slice(0, 60_000)}\n${run.summary}\n${serverErrors(server)}`);
    });
  });
}
