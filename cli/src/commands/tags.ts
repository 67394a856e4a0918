// `ldk issue tag` and `ldk conversation tag`: the API replaces a record's tags as a whole, so a
// change reads the current list, edits it and sends the whole list back.
import { type Argument, type Command, Option } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api } from '../api.js';

interface Tagged {
  id: string;
  tags: string[];
}

/** A kind of record that has tags: how it is named on the command line, read, written and shown. */
export interface TagTarget<Resource extends Tagged> {
  argument: Argument;
  read(api: Api, ref: string): Promise<Resource>;
  write(api: Api, id: string, tags: string[]): Promise<Resource>;
  name(record: Resource): string;
}

interface TagOptions {
  remove?: string[];
  set?: true;
}

/** How the API compares tags: trimmed, without case. */
const tagKey = (tag: string) => tag.trim().toLowerCase();

/** --set: the tags given, alone. Otherwise the current ones without those --remove names, then the tags given (the API drops repeats). */
function editedTags(current: string[], added: string[], options: TagOptions): string[] {
  if (options.set) return added;
  const removed = new Set((options.remove ?? []).map(tagKey));
  return [...current.filter((tag) => !removed.has(tagKey(tag))), ...added];
}

const describeTags = (tags: string[]) => (tags.length === 0 ? 'has no tags' : `is tagged ${tags.join(', ')}`);

export function defineTagCommand<Resource extends Tagged>(parent: Command, target: TagTarget<Resource>): void {
  async function tag(api: Api, ref: string, added: string[], options: TagOptions): Promise<HumanOutput> {
    let record = await target.read(api, ref);
    if (options.set || options.remove || added.length > 0) {
      record = await target.write(api, record.id, editedTags(record.tags, added, options));
    }
    return () => `${target.name(record)} ${describeTags(record.tags)}.`;
  }

  parent.command('tag').description('add tags, remove some (--remove) or replace them all (--set); with none of these, show them')
    .addArgument(target.argument)
    .argument('[tags...]', 'tags to add (each 1–50 characters, no comma; compared without case)')
    .option('--remove <tag>', 'remove this tag; repeat it for more', (tag: string, tags: string[] = []) => [...tags, tag])
    .addOption(new Option('--set', 'replace every tag with the tags given (none: remove them all)').conflicts('remove'))
    .addHelpText('after', `
Without --set, the --remove tags come off first, then the tags given are added after the others.
The tags are read, then the whole list is written back: a change someone else makes in between
is lost.`)
    .action(withApi(tag));
}
