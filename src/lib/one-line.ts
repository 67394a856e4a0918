// Text for places that hold one line (a person's name, a mail header, a failure shown to agents):
// nothing in it may break the line or change the direction of what follows.

/**
 * C0 and C1 control characters (line breaks, tabs and NEL among them), DEL, the line and
 * paragraph separators, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), which can make a name read backwards. The bidi marks (U+200E, U+200F, U+061C)
 * stay: they reorder nothing beyond themselves, and right-to-left names may need them.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/;

/**
 * `text` on one line: each run of control characters, with the spaces around it, becomes one space
 * (other spaces stay as they are), trimmed; cut to `max` characters. Split and trimmed piece by
 * piece rather than by one pattern around the controls, which would take quadratic time on long runs of spaces.
 */
export const oneLine = (text: string, max = Infinity): string =>
  text.split(CONTROLS).map((piece) => piece.trim()).filter((piece) => piece !== '').join(' ').slice(0, max);
