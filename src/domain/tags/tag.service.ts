// GET /tags: the workspace's tags in use with their counts, kept by the records' write units.
import type { TagRepository, TagRow } from '../../db/repositories/tag.repository.js';
import type { Actor } from '../accounts/actor.js';

export function createTagService({ tags }: { tags: Pick<TagRepository, 'list'> }) {
  return {
    list: (actor: Actor): Promise<TagRow[]> => tags.list(actor.workspaceId),
  };
}

export type TagService = ReturnType<typeof createTagService>;
