// Schemathesis, the pinned version from test/fixtures/schemathesis-requirements.txt, found at
// LOOPDESK_SCHEMATHESIS or in the cache virtual environment .ci/run installs it into, and run
// with test/fixtures/schemathesis.toml and its hooks against a real server.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, runCommand, type SeededReferences } from './openapi-tools.js';

const REQUIREMENTS = join(FIXTURES, 'schemathesis-requirements.txt');
const CONFIG = join(FIXTURES, 'schemathesis.toml');
const HOOKS = join(FIXTURES, 'schemathesis-hooks.py');

export const SCHEMATHESIS_VERSION = /^schemathesis==(\S+)$/m.exec(readFileSync(REQUIREMENTS, 'utf8'))![1];
/** Fixed, so a failure reproduces; the same seed as the reliability fuzzer. */
export const SCHEMATHESIS_SEED = 20261121;
/** Test cases per operation and phase: about a minute per database on 2 cores. */
export const SCHEMATHESIS_MAX_EXAMPLES = 100;

export type SchemathesisPhase = 'examples' | 'coverage' | 'fuzzing' | 'stateful';
export const SCHEMATHESIS_PHASES: SchemathesisPhase[] = ['examples', 'coverage', 'fuzzing', 'stateful'];

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
      '--max-examples', String(SCHEMATHESIS_MAX_EXAMPLES),
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
        LOOPDESK_ST_PRODUCT_ID: references.productId,
        LOOPDESK_ST_ISSUE_ID: references.issueId,
        LOOPDESK_ST_CONVERSATION_ID: references.conversationId,
        LOOPDESK_ST_MEMBER_ID: references.memberId,
        LOOPDESK_ST_SAVED_REPLY_ID: references.savedReplyId,
        LOOPDESK_ST_KEY_ID: references.keyId,
        LOOPDESK_ST_SPARE_KEY_ID: references.spareKeyId,
      },
    },
  );
  const output = result.stdout + result.stderr;
  const summary = section(output, 'SUMMARY');
  if (!summary) throw new Error(`schemathesis printed no summary (exit ${result.code}):\n${output.slice(-20_000)}`);
  return { passed: result.code === 0, summary, failures: section(output, 'FAILURES', 'WARNINGS|SUMMARY') };
}
