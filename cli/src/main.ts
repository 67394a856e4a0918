// ldk: runs the command line, then exits 0 (done), 1 (failed) or 2 (bad usage), with any error as
// one line on stderr.
import { CommanderError } from 'commander';
import { ApiError, CliError } from './errors.js';
import { buildProgram } from './program.js';

/** Commander's ways of ending that are not errors. */
const FINISHED = new Set(['commander.helpDisplayed', 'commander.version']);

function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) return FINISHED.has(error.code) ? 0 : 2; // commander has printed it
  if (error instanceof CliError) {
    const hint = error instanceof ApiError && error.status === 401 ? ' (check the key: ldk login, or LOOPDESK_API_KEY)' : '';
    process.stderr.write(`error: ${error.message}${hint}\n`);
    return error.exitCode;
  }
  process.stderr.write(`error: ${(error as Error).message ?? String(error)}\n`);
  return 1;
}

// A reader that stops early (`ldk issue list | head -1`) closes the pipe: that is not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeOf(error);
}
