// Free-form JSON objects clients store (a product's widget_config, a form's fields): bounded in
// nesting and in serialized size, both checked without recursion on the way in.
import { invalidField } from '../../errors.js';

export const JSON_OBJECT_MAX_DEPTH = 32;

/** How deeply objects and arrays nest in a parsed JSON value, measured without recursion. */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** `value` as JSON text, or a validation_error on `field` when it nests too deeply or serializes to more than `maxBytes`. */
export function boundedJson(field: string, value: object, maxBytes: number): string {
  // Checked first: serializing a deeper value (16 KiB of "[") would overflow the stack.
  if (nestingDepth(value) > JSON_OBJECT_MAX_DEPTH) {
    throw invalidField(field, `must nest objects and arrays at most ${JSON_OBJECT_MAX_DEPTH} levels deep`);
  }
  const text = JSON.stringify(value);
  if (Buffer.byteLength(text) > maxBytes) throw invalidField(field, `must be at most ${maxBytes} bytes serialized`);
  return text;
}
