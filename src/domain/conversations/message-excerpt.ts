// What a conversation list row shows of its latest message (docs/inbox.md): the body on one line
// (runs of white space, line breaks included, become one space), cut to EXCERPT_MAX code points
// with an ellipsis as the last of them when it was longer. A leaf module: the migration that
// filled the column for existing conversations uses it too.

export const EXCERPT_MAX = 140;

export function messageExcerpt(body: string): string {
  const line = body.replace(/\s+/gu, ' ').trim();
  const points = [...line];
  return points.length <= EXCERPT_MAX ? line : `${points.slice(0, EXCERPT_MAX - 1).join('').trimEnd()}…`;
}
