// Tags as the API takes them (docs/tags.md): each 1–50 characters after trimming, compared without
// case, at most 20, kept in the order given with duplicates dropped (the first spelling wins).
// `retag` is what a record's write unit calls when its tags change.
import type { TagName, TagRepository } from '../../db/repositories/tag.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { TaggedRecordType } from '../../db/schema.js';
import { invalidField } from '../../errors.js';

export const TAG_MAX_LENGTH = 50;
export const TAGS_MAX = 20;

/** The key a tag is compared and filtered by. */
export const tagKey = (name: string): string => name.trim().toLowerCase();

/** The tags to store, trimmed and without duplicates; a tag blank or too long after trimming is a validation_error. */
export function normalizeTags(input: readonly string[], field = 'tags'): string[] {
  const byKey = new Map<string, string>();
  for (const raw of input) {
    const name = raw.trim();
    if (name.length === 0) throw invalidField(field, 'a tag must not be blank');
    // The list filter takes tags comma-separated, so a tag with a comma could never be filtered by.
    if (name.includes(',')) throw invalidField(field, `"${name.slice(0, 60)}" contains a comma`);
    if ([...name].length > TAG_MAX_LENGTH) throw invalidField(field, `"${name.slice(0, 60)}" is longer than ${TAG_MAX_LENGTH} characters`);
    if (!byKey.has(tagKey(name))) byKey.set(tagKey(name), name);
  }
  return [...byKey.values()];
}

/** A record's stored tags (its `tags` column) as names. */
export const parseTags = (stored: string): string[] => JSON.parse(stored) as string[];

/** Keeps record_tags and the tag counts in step with a record's tags moving from `before` to `after`. */
export async function retag(
  tags: Pick<TagRepository, 'retag'>, tx: Executor, workspaceId: string, type: TaggedRecordType, recordId: string,
  before: readonly string[], after: readonly string[],
): Promise<void> {
  const beforeKeys = new Set(before.map(tagKey));
  const afterKeys = new Set(after.map(tagKey));
  const added: TagName[] = after.filter((name) => !beforeKeys.has(tagKey(name))).map((name) => ({ key: tagKey(name), name }));
  const removed = [...beforeKeys].filter((key) => !afterKeys.has(key));
  await tags.retag(workspaceId, type, recordId, added, removed, tx);
}
