import { Type } from '@sinclair/typebox';
import { TAG_MAX_LENGTH, TAGS_MAX } from '../../domain/tags/tags.js';
import { NUL_FREE, trimmedPattern } from './common.js';

/** A record's tags as the API shows them. */
export const TagNames = () => Type.Array(Type.String(), {
  description: '[ext] Its tags, in the order given (duplicates dropped, compared without case); [] when none',
  examples: [['billing', 'Android']],
});

/**
 * Tags as a PATCH sets them: the whole list. Each item's rule is in its pattern, and checked by the
 * tags' own code (src/domain/tags/tags.ts), whose error quotes the bad tag.
 */
export const TagsInput = (what = '[ext] Replaces the tags') => Type.Array(Type.String({ maxLength: 1000, pattern: trimmedPattern(TAG_MAX_LENGTH, ','), 'x-route-parsed': true }), {
  maxItems: TAGS_MAX,
  description: `${what}: at most ${TAGS_MAX}, each 1–${TAG_MAX_LENGTH} characters after trimming and without ` +
    'a comma; compared without case, duplicates dropped (the first spelling kept), order kept',
});

/** The lists' `tag` filter. */
export const TagFilter = () => Type.String({
  pattern: NUL_FREE,
  description: '[ext] Only records carrying any of these tags: comma-separated, compared without case',
});

export const Tag = Type.Object(
  {
    name: Type.String({ description: 'The tag as first spelled while it has been in use' }),
    conversations: Type.Integer({ description: 'Conversations carrying it' }),
    issues: Type.Integer({ description: 'Issues carrying it' }),
  },
  {
    $id: 'Tag', additionalProperties: false, description: '[ext] A tag in use in the workspace, with how many records carry it',
    examples: [{ name: 'billing', conversations: 12, issues: 3 }],
  },
);
