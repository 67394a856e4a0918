// Options shared by several commands, checked before any request: a bad value is a usage error (exit 2).
import { type Command, InvalidArgumentError, Option } from 'commander';
import { parameter } from './document.js';
import { isUuid } from './resolve.js';

export function choiceOption(flags: string, description: string, values: readonly string[]): Option {
  return new Option(flags, description).choices(values);
}

function commaSeparated(accepts: (item: string) => boolean, expected: string) {
  return (text: string): string => {
    const items = text.split(',').map((item) => item.trim()).filter(Boolean);
    if (items.length === 0 || !items.every(accepts)) throw new InvalidArgumentError(`expected ${expected}, comma-separated`);
    return items.join(',');
  };
}

/** A filter of comma-separated values from an enum; `values` also feeds the completion script. */
export class ListOption extends Option {
  readonly values: readonly string[];

  constructor(flags: string, description: string, values: readonly string[]) {
    super(flags, `${description}, comma-separated: ${values.join(', ')}`);
    this.values = values;
    this.argParser(commaSeparated((item) => values.includes(item), values.join(', ')));
  }
}

/** MEMBER as the API takes it: a member id, `me`, or null for `none`. */
export function memberArgument(text: string): string | null {
  if (text === 'none') return null;
  if (text === 'me' || isUuid(text)) return text;
  throw new InvalidArgumentError('expected a member id, me or none');
}

export const assigneeFilterOption = (): Option =>
  new Option('--assignee <members>', 'assignees, comma-separated: member ids, me, none (unassigned)').argParser(
    commaSeparated((item) => isUuid(item) || item === 'me' || item === 'none', 'member ids, me or none'),
  );

function integerIn(minimum: number, maximum: number) {
  return (text: string): number => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || value < minimum || value > maximum) {
      throw new InvalidArgumentError(`expected an integer from ${minimum} to ${maximum}`);
    }
    return value;
  };
}

/** --limit and --offset, with the bounds the API states for `operationId`. */
export function addPageOptions(command: Command, operationId: string): Command {
  type Bounds = { minimum: number; maximum: number; default: number };
  const [limit, offset] = ['limit', 'offset'].map((name) => parameter(operationId, name).schema as Bounds);
  const limitHelp = `page size, ${limit.minimum}–${limit.maximum} (default ${limit.default})`;
  return command
    .addOption(new Option('--limit <n>', limitHelp).argParser(integerIn(limit.minimum, limit.maximum)))
    .addOption(new Option('--offset <n>', 'records to skip (default 0)').argParser(integerIn(offset.minimum, offset.maximum)));
}

export const productOption = (purpose: string): Option =>
  new Option('--product <slug|id>', `${purpose} (default: this folder's, from .loopdesk.json)`);

export interface PageOptions {
  limit?: number;
  offset?: number;
}

/** True when none of an update's options was given (undefined fields are left out of a JSON body). */
export const nothingGiven = (body: Record<string, unknown>): boolean => Object.values(body).every((value) => value === undefined);
