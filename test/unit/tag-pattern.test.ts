// The document's pattern for a tag says what the tags' own code accepts: for any string, the
// pattern matches exactly when normalizeTags takes it (1–50 characters after trimming, no comma;
// U+0000 is refused for every body string before either sees it).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { normalizeTags, TAG_MAX_LENGTH } from '../../src/domain/tags/tags.js';
import { TagsInput } from '../../src/http/schemas/tag.js';

const pattern = new RegExp((TagsInput().items as { pattern: string }).pattern, 'u');
const accepted = (tag: string) => {
  try {
    normalizeTags([tag]);
    return true;
  } catch {
    return false;
  }
};
// Whitespace of every kind trim removes, commas, and characters outside the BMP, around ordinary text.
const piece = fc.oneof(
  fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u2003', '\u3000', '\ufeff', ',', 'é', '😀', 'a', 'B', '-'),
  fc.string({ maxLength: 3, unit: 'grapheme' }),
);
const tag = fc.array(piece, { maxLength: TAG_MAX_LENGTH + 5 }).map((pieces) => pieces.join('')).filter((text) => !text.includes('\u0000'));

it('a tag matches the document\'s pattern exactly when the tags\' code accepts it', () => {
  fc.assert(fc.property(tag, (text) => pattern.test(text) === accepted(text)), { numRuns: 2000 });
  for (const edge of ['a', ' a ', 'a'.repeat(TAG_MAX_LENGTH), ` ${'😀'.repeat(TAG_MAX_LENGTH)} `]) assert.ok(pattern.test(edge) && accepted(edge), edge);
  for (const edge of ['', '   ', 'a,b', 'a'.repeat(TAG_MAX_LENGTH + 1), '😀'.repeat(TAG_MAX_LENGTH + 1)]) assert.ok(!pattern.test(edge) && !accepted(edge), edge);
});
