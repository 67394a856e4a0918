// Shortening a title for a draft issue without cutting a word in half, in any script.

const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * `text` when it has at most `max` characters (UTF-16 code units, as the API counts them);
 * otherwise the longest run of whole words that fits, without trailing spaces or punctuation
 * that ended a cut-off clause. A first word longer than `max` is cut between characters.
 */
export function cutAtWord(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  let end = 0;
  for (const { segment, index, isWordLike } of words.segment(trimmed)) {
    if (index + segment.length > max) break;
    if (isWordLike) end = index + segment.length;
  }
  if (end > 0) return trimmed.slice(0, end);
  let cut = '';
  for (const { segment } of graphemes.segment(trimmed)) {
    if (cut.length + segment.length > max) break;
    cut += segment;
  }
  return cut;
}
