// `loopdesk <args>` in the test's own process: the CLI's entry (`runCommand` in src/cli.ts) with
// `env` added to this process's environment and its output and exit status captured, one command
// at a time (the CLI runs one command per process). A command costs the test a function call
// instead of a process start (about 0.4 s of CPU each); what only a process shows (bin/loopdesk.js,
// the status it exits with, what reaches its streams) is runCli's (test/helpers/processes.ts).
import { runCommand } from '../../src/cli.js';
import type { CliResult } from './processes.js';

let previous: Promise<unknown> = Promise.resolve();

export function runCliInProcess(args: string[], env: Record<string, string>): Promise<CliResult> {
  const result = previous.then(async () => {
    let stdout = '';
    let stderr = '';
    const code = await runCommand(args, {
      env: { ...process.env, ...env },
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
    });
    return { code, stdout, stderr };
  });
  previous = result.catch(() => undefined);
  return result;
}
