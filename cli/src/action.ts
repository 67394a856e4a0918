// How a command that talks to the server runs: it connects, makes its calls, then prints either the
// body of the API's last answer (--json, error answers included) or what it has to say to a person.
import type { Command } from 'commander';
import { Api } from './api.js';
import { resolveCredentials, type Credentials } from './config.js';
import { ApiError } from './errors.js';

/** What to print for a person; run only without --json, so it may ask the API for names. */
export type HumanOutput = () => string | Promise<string>;

export function print(text: string): void {
  if (text !== '') process.stdout.write(`${text}\n`);
}

const printJson = (body: unknown) => print(JSON.stringify(body, null, 2));

/** Commander's action for `handler`: its arguments, then its options, then the command itself. */
export function withApi<Args extends unknown[]>(
  handler: (api: Api, ...args: Args) => Promise<HumanOutput>,
  credentials: (options: Record<string, unknown>) => Credentials = resolveCredentials,
): (...args: Args) => Promise<void> {
  return async (...args) => {
    const command = args[args.length - 1] as Command;
    const api = new Api(credentials(command.opts()));
    const json = command.opts().json === true;
    try {
      const human = await handler(api, ...args);
      if (json) printJson(api.lastAnswer);
      else print(await human());
    } catch (error) {
      if (json && error instanceof ApiError) printJson(api.lastAnswer);
      throw error;
    }
  };
}
